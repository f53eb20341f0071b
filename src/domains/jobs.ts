import type { Core } from '../core.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { rotateDueKeys } from './rotation.js';
import { recheckDomains } from './service.js';
import type { Dns } from '../dns/resolver.js';

/** The spec's background verification period. */
export const DOMAIN_CHECK_EVERY_MS = 5 * 60_000;
const DOMAIN_CHECK_JOB = 'domains.check';
/** How often the scheduled rotation (dkim.rotateEveryDays) looks for domains due one. */
const ROTATION_EVERY_MS = 3600_000;
const ROTATION_JOB = 'domains.rotate-keys';

/**
 * Every 5 minutes every domain is checked again (one whose records vanished turns pending, a new
 * DKIM key found published starts signing); every hour domains due a scheduled rotation get one.
 */
export function domainJobs(runner: JobRunner, core: Core, dns: Dns): void {
  runner.register(DOMAIN_CHECK_JOB, recurring(core.clock, DOMAIN_CHECK_EVERY_MS, () => recheckDomains(core, dns)));
  scheduleRecurring(core.jobs, DOMAIN_CHECK_JOB, core.clock.now() + DOMAIN_CHECK_EVERY_MS);
  runner.register(ROTATION_JOB, recurring(core.clock, ROTATION_EVERY_MS, () => rotateDueKeys(core)));
  scheduleRecurring(core.jobs, ROTATION_JOB, core.clock.now() + ROTATION_EVERY_MS);
}
