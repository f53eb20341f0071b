import type { Ctx } from '../context.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { recheckDomains } from './service.js';

/** The spec's background verification period. */
export const DOMAIN_CHECK_EVERY_MS = 5 * 60_000;
const DOMAIN_CHECK_JOB = 'domains.check';

/** Every 5 minutes every domain is checked again; one whose records vanished turns pending. */
export function domainJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(DOMAIN_CHECK_JOB, recurring(ctx.clock, DOMAIN_CHECK_EVERY_MS, () => recheckDomains(ctx)));
  scheduleRecurring(ctx.jobs, DOMAIN_CHECK_JOB, ctx.clock.now() + DOMAIN_CHECK_EVERY_MS);
}
