// Cached member counts: counted by background jobs (and POST refresh), never per read.
import type { Ctx } from '../context.js';
import { countFiltered } from '../filters/engine.js';
import { plannedSegment, projectSegments } from './catalog.js';
import { countMembers, recordCount, type Segment } from './store.js';

/** Members now: a static segment's rows, the contacts a dynamic segment's condition matches. */
async function countNow(ctx: Ctx, segment: Segment): Promise<number> {
  if (segment.type === 'STATIC') return countMembers(ctx.db, segment.projectId, segment.id);
  const { filter } = plannedSegment(ctx, segment);
  return filter ? countFiltered(ctx, filter) : 0;
}

/** Counts and stores the segment's memberCount (and what counting cost). */
export async function refreshCount(ctx: Ctx, segment: Segment): Promise<number> {
  const started = performance.now();
  const memberCount = await countNow(ctx, segment);
  recordCount(ctx.db, segment.projectId, segment.id, { memberCount, at: ctx.clock.now(), ms: Math.round(performance.now() - started) });
  return memberCount;
}

/** One segment, or every segment of the project, one after the other. */
export async function refreshCounts(ctx: Ctx, projectId: string, segmentId?: string): Promise<void> {
  const targets = projectSegments(ctx, projectId).all.filter((p) => segmentId === undefined || p.segment.id === segmentId);
  for (const { segment } of targets) await refreshCount(ctx, segment);
}
