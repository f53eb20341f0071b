// A cancelled campaign's unsent emails end as failed a batch at a time, in a durable job: the
// cancel answers at once (the campaign CANCELLED), and a send of 100,000 queued emails is not one
// UPDATE holding the store. Until the job reaches an email, delivery sees the campaign cancelled
// and fails it itself (src/outbound/deliver-job.ts), so none is attempted meanwhile.
import type { Core } from '../core.js';
import type { JobHandler } from '../jobs/runner.js';
import { inBatches, WRITE_BATCH } from '../store/batches.js';
import { failUnsentEmails, type EmailPosition } from './store.js';

export const CANCEL_JOB = 'campaign.cancel';

export interface CancelPayload {
  campaignId: string;
}

/** Queued with the cancel, in its transaction: once per campaign (a campaign is cancelled once). */
export function queueCancel(core: Core, projectId: string, campaignId: string): void {
  const payload: CancelPayload = { campaignId };
  core.jobs.enqueue(CANCEL_JOB, payload, { projectId, uniqueKey: `${CANCEL_JOB}:${campaignId}` });
}

/** Safe to run again: it walks the campaign's emails from the start, and failed ones stay failed. */
export function cancelJob(core: Core): JobHandler<CancelPayload> {
  return {
    concurrency: 2,
    async run(job) {
      const { campaignId } = job.payload;
      let position: EmailPosition | null = null;
      let batches = 0;
      const passed = await inBatches(() =>
        core.bus.tx(() => {
          batches++;
          const batch = failUnsentEmails(core.db, campaignId, position, core.clock.now(), WRITE_BATCH);
          position = batch.last;
          return batch.passed;
        }),
      );
      core.log.info('campaign cancel finished', { projectId: job.projectId, campaignId, emails: passed, batches });
    },
  };
}
