// The doctor's outbound SMTP check, run by the daemon itself at every start and daily, so the
// console can warn that port 25 is blocked without anyone running `postmill doctor`.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Dns } from '../dns/resolver.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobRunner } from '../jobs/runner.js';
import type { Db } from '../store/db.js';
import { checkOutbound, OUTBOUND_CHECK } from './outbound.js';
import { forgetCheckResult, saveCheckResult } from './store.js';

export const OUTBOUND_CHECK_JOB = 'doctor.outbound';
export const OUTBOUND_CHECK_EVERY_MS = 24 * 3600_000;

interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  dns: Dns;
  jobs: JobQueue;
}

/** Runs the check and keeps its result; with the check turned off (no probe domain, or capture mode) forgets any earlier one. */
export async function runOutboundCheck({ db, clock, config, dns }: Omit<Deps, 'jobs'>): Promise<void> {
  const probeDomain = config.doctor.probeDomain;
  if (probeDomain === null || config.delivery.mode === 'capture') {
    forgetCheckResult(db, OUTBOUND_CHECK);
    return;
  }
  const check = await checkOutbound(config, dns, probeDomain);
  saveCheckResult(db, check, clock.now());
}

export function doctorJobs(runner: JobRunner, deps: Deps): void {
  runner.register(OUTBOUND_CHECK_JOB, recurring(deps.clock, OUTBOUND_CHECK_EVERY_MS, () => runOutboundCheck(deps)));
  scheduleRecurring(deps.jobs, OUTBOUND_CHECK_JOB, deps.clock.now(), { atStart: true });
}
