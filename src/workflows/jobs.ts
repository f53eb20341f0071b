import type { Core } from '../core.js';
import type { JobRunner } from '../jobs/runner.js';
import { STEP_JOB, stepJob } from './runner.js';
import { TRIGGER_JOB, workflowTriggers } from './triggers.js';
import type { StepTools } from './steps/step.js';

export function workflowJobs(runner: JobRunner, core: Core, tools: StepTools): void {
  runner.register(STEP_JOB, stepJob(core, tools));
  runner.register(TRIGGER_JOB, workflowTriggers(core).job);
}
