import { iso, isoOrNull } from '../../clock.js';
import type { ContactJob } from './store.js';

/** The poll answer of import and bulk jobs; `result` holds running totals until the job ends. */
export const presentContactJob = (job: ContactJob) => ({
  id: job.id,
  type: job.type,
  state: job.state,
  progress: job.progress,
  result: job.result,
  error: job.error,
  createdAt: iso(job.createdAt),
  finishedAt: isoOrNull(job.finishedAt),
});
