// The segment job kinds, how work is queued for them, and their handlers.
import { REACTOR_JOB_PREFIX } from '../bus/reactor.js';
import type { Core } from '../core.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { refreshCounts } from './counts.js';
import { reevaluateContact } from './membership.js';
import { projectsWithSegments } from './store.js';

/** One contact against the project's tracked segments. Payload `{contactId}`. */
export const REEVALUATE_JOB = `${REACTOR_JOB_PREFIX}segments`;
/** Cached member counts: payload `{segmentId}` for one segment, `{}` for every segment of the job's project. */
export const COUNT_JOB = 'segments.count';
/** Every 5 minutes (the spec's period): a count of every project's segments. */
const COUNT_ALL_JOB = 'segments.count-all';
const COUNT_EVERY_MS = 5 * 60_000;
/** Contact changes recount a project's segments after 30 s, or 20 times what its last count cost: at most 5% of the time goes to recounting. */
const RECOUNT_DELAY_MS = 30_000;
const RECOUNT_COST_FACTOR = 20;

export function queueReevaluation(core: Core, projectId: string, contactIds: readonly string[]): void {
  for (const contactId of contactIds) core.jobs.enqueue(REEVALUATE_JOB, { contactId }, { projectId, coalesceKey: `${REEVALUATE_JOB}:${contactId}` });
}

/** A count of one segment now (after a change of the segment or of its members). */
export function queueSegmentCount(core: Core, projectId: string, segmentId: string): void {
  core.jobs.enqueue(COUNT_JOB, { segmentId }, { projectId, coalesceKey: `${COUNT_JOB}:${segmentId}` });
}

/** After contact changes: one recount of the project's segments, later (coalesced). */
export function queueProjectRecount(core: Core, projectId: string, lastCostMs: number): void {
  const runAt = core.clock.now() + Math.max(RECOUNT_DELAY_MS, RECOUNT_COST_FACTOR * lastCostMs);
  core.jobs.enqueue(COUNT_JOB, {}, { projectId, runAt, coalesceKey: `${COUNT_JOB}:changes:${projectId}` });
}

function queueEveryCount(core: Core): void {
  for (const projectId of projectsWithSegments(core.db)) core.jobs.enqueue(COUNT_JOB, {}, { projectId, coalesceKey: `${COUNT_JOB}:periodic:${projectId}` });
}

export function segmentJobs(runner: JobRunner, core: Core): void {
  runner.register<{ contactId: string }>(REEVALUATE_JOB, {
    concurrency: 4,
    run: async (job) => reevaluateContact(core, job.projectId!, job.payload.contactId),
  });
  runner.register<{ segmentId?: string }>(COUNT_JOB, {
    concurrency: 1,
    run: (job) => refreshCounts(core, job.projectId!, job.payload.segmentId),
  });
  runner.register(COUNT_ALL_JOB, recurring(core.clock, COUNT_EVERY_MS, () => queueEveryCount(core)));
  scheduleRecurring(core.jobs, COUNT_ALL_JOB, core.clock.now() + COUNT_EVERY_MS);
}
