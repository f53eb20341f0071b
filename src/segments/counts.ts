// Cached member counts: counted by background jobs (and POST refresh), never per read.
import type { Core } from '../core.js';
import { isQueryTimeout } from '../errors.js';
import { countFiltered } from '../filters/engine.js';
import { plannedSegment, projectSegments } from './catalog.js';
import { readFor, type ReadPurpose } from '../store/reader.js';
import { countMembers, recordCount, type Segment } from './store.js';

/** Members now: a static segment's rows, the contacts a dynamic segment's condition matches. */
async function countNow(core: Core, segment: Segment, purpose: ReadPurpose): Promise<number> {
  if (segment.type === 'STATIC') return countMembers(core.reader, readFor(core.config, segment.projectId, purpose), segment.id);
  const { filter } = plannedSegment(core, segment);
  return filter ? countFiltered(core, filter, purpose) : 0;
}

/** Counts (for a request, or a job with its longer budget) and stores the segment's memberCount (and what counting cost). */
export async function refreshCount(core: Core, segment: Segment, purpose: ReadPurpose): Promise<number> {
  const started = performance.now();
  const memberCount = await countNow(core, segment, purpose);
  recordCount(core.db, segment.projectId, segment.id, { memberCount, at: core.clock.now(), ms: Math.round(performance.now() - started) });
  return memberCount;
}

/**
 * One segment, or every segment of the project, one after the other (the count job). A count
 * stopped at its budget leaves that segment's memberCount as it was, the others are counted, and
 * the job then fails naming the segments, so that it is retried (and logged) with that reason.
 */
export async function refreshCounts(core: Core, projectId: string, segmentId?: string): Promise<void> {
  const targets = projectSegments(core, projectId).all.filter((p) => segmentId === undefined || p.segment.id === segmentId);
  const stopped: string[] = [];
  for (const { segment } of targets) {
    try {
      await refreshCount(core, segment, 'job');
    } catch (err) {
      if (!isQueryTimeout(err)) throw err;
      stopped.push(`"${segment.name}" (${segment.id})`);
    }
  }
  if (stopped.length > 0) {
    throw new Error(`counting segment ${stopped.join(', ')} ran past ${core.config.reads.jobBudgetMs} ms (reads.jobBudgetMs) and was stopped; its memberCount is left as it was`);
  }
}
