import type { Ctx } from '../context.js';
import type { JobRunner } from '../jobs/runner.js';
import { FANOUT_JOB, fanoutJob } from './fanout.js';

export function campaignJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(FANOUT_JOB, fanoutJob(ctx));
}
