import type { Core } from '../../core.js';
import { recurring, scheduleRecurring } from '../../jobs/recurring.js';
import type { JobRunner } from '../../jobs/runner.js';
import { sweepImportFiles } from '../import/files.js';
import { deleteContactJobsCreatedBefore, isContactJobUnfinished } from './store.js';

/** Import and bulk jobs are kept this long for polling. */
export const CONTACT_JOBS_KEPT_MS = 7 * 24 * 60 * 60_000;
/** An upload file no job needs is left alone this long (it may be on its way into a job). */
const STRAY_FILE_AGE_MS = 60 * 60_000;
const SWEEP_JOB = 'sweep.contact-jobs';
const SWEEP_EVERY_MS = 60 * 60_000;

/** Drops jobs older than 7 days, then every upload file no unfinished job needs. */
export async function sweepContactJobs(core: Core): Promise<void> {
  const now = core.clock.now();
  deleteContactJobsCreatedBefore(core.db, now - CONTACT_JOBS_KEPT_MS);
  await sweepImportFiles(core.config.dataDir, now - STRAY_FILE_AGE_MS, (projectId, jobId) => isContactJobUnfinished(core.db, projectId, jobId));
}

export function contactJobSweep(runner: JobRunner, core: Core): void {
  runner.register(SWEEP_JOB, recurring(core.clock, SWEEP_EVERY_MS, () => sweepContactJobs(core)));
  scheduleRecurring(core.jobs, SWEEP_JOB, core.clock.now() + SWEEP_EVERY_MS);
}
