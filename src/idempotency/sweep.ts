import type { Core } from '../core.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { inBatches, WRITE_BATCH } from '../store/batches.js';
import { sweepKeys } from './store.js';

const SWEEP_JOB = 'sweep.idempotency';
const SWEEP_EVERY_MS = 60 * 60_000;

/** Expired claims are removed every hour, a batch at a time. */
export function idempotencyJobs(runner: JobRunner, core: Core): void {
  const sweep = async () => {
    await inBatches(() => sweepKeys(core.db, core.clock.now(), WRITE_BATCH));
  };
  runner.register(SWEEP_JOB, recurring(core.clock, SWEEP_EVERY_MS, sweep));
  scheduleRecurring(core.jobs, SWEEP_JOB, core.clock.now() + SWEEP_EVERY_MS);
}
