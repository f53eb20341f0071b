import type { Ctx } from '../context.js';
import type { JobRunner } from '../jobs/runner.js';
import { STEP_JOB, stepJob } from './runner.js';
import { TRIGGER_JOB, workflowTriggers } from './triggers.js';

export function workflowJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(STEP_JOB, stepJob(ctx));
  runner.register(TRIGGER_JOB, workflowTriggers(ctx).job);
}
