import type { Ctx } from '../context.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { recheckDomains } from './service.js';

/** The spec's background verification period. */
export const DOMAIN_CHECK_EVERY_MS = 5 * 60_000;

/** The `domains.check` job: every 5 minutes every domain is checked again; one whose records vanished turns pending. */
export function registerDomainJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register('domains.check', recurring(ctx.clock, DOMAIN_CHECK_EVERY_MS, () => recheckDomains(ctx)));
  scheduleRecurring(ctx.jobs, 'domains.check', ctx.clock.now() + DOMAIN_CHECK_EVERY_MS);
}
