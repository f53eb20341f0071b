// Segment membership tracking as a reactor: a contact change, or an event a tracked segment's
// condition reads, queues one re-evaluation of that contact (coalesced while it waits), in the
// transaction of the change. Projects without tracked segments pay one in-memory lookup.
import type { Reactor } from '../bus/reactor.js';
import type { Ctx } from '../context.js';
import { projectSegments } from './catalog.js';
import { queueProjectRecount, queueReevaluation } from './jobs.js';

function segmentReactor(ctx: Ctx): Reactor {
  return {
    name: 'segments',
    events: 'all',
    onEvent(event) {
      if (event.contactId === null) return;
      if (projectSegments(ctx, event.projectId).trackedEvents.has(event.name)) queueReevaluation(ctx, event.projectId, [event.contactId]);
    },
    onContactChange({ projectId, contactId, change }) {
      const segments = projectSegments(ctx, projectId);
      if (segments.all.length === 0) return;
      if (change !== 'deleted' && segments.tracked.length > 0) queueReevaluation(ctx, projectId, [contactId]);
      queueProjectRecount(ctx, projectId, segments.countCostMs);
    },
  };
}

export const segmentReactors = (ctx: Ctx): Reactor[] => [segmentReactor(ctx)];
