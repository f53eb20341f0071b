import type { Core } from '../core.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { sweepKeys } from './store.js';

const SWEEP_JOB = 'sweep.idempotency';
const SWEEP_EVERY_MS = 60 * 60_000;

/** Expired claims are removed every hour. */
export function idempotencyJobs(runner: JobRunner, core: Core): void {
  runner.register(SWEEP_JOB, recurring(core.clock, SWEEP_EVERY_MS, () => void sweepKeys(core.db, core.clock.now())));
  scheduleRecurring(core.jobs, SWEEP_JOB, core.clock.now() + SWEEP_EVERY_MS);
}
