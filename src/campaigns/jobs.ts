import type { Core } from '../core.js';
import type { JobRunner } from '../jobs/runner.js';
import { CANCEL_JOB, cancelJob } from './cancel-job.js';
import { FANOUT_JOB, fanoutJob, type FanoutTools } from './fanout.js';

export function campaignJobs(runner: JobRunner, core: Core, tools: FanoutTools): void {
  runner.register(FANOUT_JOB, fanoutJob(core, tools));
  runner.register(CANCEL_JOB, cancelJob(core));
}
