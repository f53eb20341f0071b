import type { Core } from '../core.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { recheckDomains } from './service.js';
import type { Dns } from '../dns/resolver.js';

/** The spec's background verification period. */
export const DOMAIN_CHECK_EVERY_MS = 5 * 60_000;
const DOMAIN_CHECK_JOB = 'domains.check';

/** Every 5 minutes every domain is checked again; one whose records vanished turns pending. */
export function domainJobs(runner: JobRunner, core: Core, dns: Dns): void {
  runner.register(DOMAIN_CHECK_JOB, recurring(core.clock, DOMAIN_CHECK_EVERY_MS, () => recheckDomains(core, dns)));
  scheduleRecurring(core.jobs, DOMAIN_CHECK_JOB, core.clock.now() + DOMAIN_CHECK_EVERY_MS);
}
