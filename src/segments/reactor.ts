// Segment membership tracking as a reactor: a contact change, or an event a tracked segment's
// condition reads, queues one re-evaluation of that contact (coalesced while it waits), in the
// transaction of the change. Projects without tracked segments pay one in-memory lookup.
import type { Reactor } from '../bus/reactor.js';
import type { Core } from '../core.js';
import { projectSegments } from './catalog.js';
import { queueProjectRecount, queueReevaluation } from './jobs.js';

function segmentReactor(core: Core): Reactor {
  return {
    name: 'segments',
    events: 'all',
    onEvent(event) {
      if (event.contactId === null) return;
      if (projectSegments(core, event.projectId).trackedEvents.has(event.name)) queueReevaluation(core, event.projectId, [event.contactId]);
    },
    onContactChange({ projectId, contactId, change }) {
      const segments = projectSegments(core, projectId);
      if (segments.all.length === 0) return;
      if (change !== 'deleted' && segments.tracked.length > 0) queueReevaluation(core, projectId, [contactId]);
      queueProjectRecount(core, projectId, segments.countCostMs);
    },
  };
}

export const segmentReactors = (core: Core): Reactor[] => [segmentReactor(core)];
