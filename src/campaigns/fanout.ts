// The durable fan-out of a campaign: walks the audience in keyset batches; each batch is composed
// off the main thread, then written in one transaction with the walk's new position, so a restart
// continues where the last committed batch ended. The recipient key refuses a second email to a contact.
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import type { JobHandler } from '../jobs/runner.js';
import { composeMessages, storeMessage } from '../messages/pipeline.js';
import { suppressedAmong } from '../suppressions/store.js';
import type { MatchingWalk } from '../filters/sqlite.js';
import { audienceWalk } from './audience.js';
import { campaignContent } from './content.js';
import { addRecipient, advanceWalk, findCampaignById, finishWalk, markSending, type Campaign } from './store.js';

export const FANOUT_JOB = 'campaign.fanout';

export interface FanoutPayload {
  campaignId: string;
  /** The send round that queued this job: a newer send or a cancel makes it stale. */
  round: number;
}

/** Contacts per batch: large enough to keep the compose threads busy, small enough that its transaction stays short. */
const BATCH = 200;

const isCurrent = (c: Campaign | null, round: number): c is Campaign => c !== null && c.sendRound === round && c.status === 'SENDING';

/** One batch; answers false once the whole audience has been walked. */
async function fanOutBatch(ctx: Ctx, campaign: Campaign, walk: MatchingWalk): Promise<boolean> {
  const batch = walk.next(campaign.walkedTo, BATCH);
  if (batch.length === 0) {
    finishWalk(ctx.db, campaign.id, ctx.clock.now());
    return false;
  }
  const suppressed = suppressedAmong(ctx.db, campaign.projectId, batch.map((c) => c.email));
  const content = campaignContent(ctx, campaign);
  const addressed = batch
    .filter((contact) => !suppressed.has(contact.email.toLowerCase()))
    .map((contact) => ({ recipient: { contact, oneOff: {}, name: null }, emailId: randomUUID() }));
  const composed = await composeMessages(ctx, content, addressed, Infinity);
  ctx.bus.tx(() => {
    // cancelled (or sent again) while this batch was composed: it is dropped
    if (!isCurrent(findCampaignById(ctx.db, campaign.projectId, campaign.id), campaign.sendRound)) return;
    addressed.forEach(({ recipient, emailId }, i) => {
      const { contact } = recipient;
      if (addRecipient(ctx.db, campaign.id, contact.id, emailId)) storeMessage(ctx, content, { contactId: contact.id, email: contact.email }, emailId, composed[i]!, 'bulk');
    });
    const skipped = batch.filter((c) => suppressed.has(c.email.toLowerCase()) && addRecipient(ctx.db, campaign.id, c.id, null)).length;
    advanceWalk(ctx.db, campaign.id, batch[batch.length - 1]!.id, skipped);
  });
  return true;
}

export function fanoutJob(ctx: Ctx): JobHandler<FanoutPayload> {
  return {
    concurrency: 2,
    async run(job) {
      const { campaignId, round } = job.payload;
      // planned once per run; after a restart the audience keeps the times of the send's start
      let walk: MatchingWalk | null = null;
      for (;;) {
        const campaign = job.projectId ? findCampaignById(ctx.db, job.projectId, campaignId) : null;
        if (!campaign || campaign.sendRound !== round || campaign.walked) return;
        // a scheduled send whose time has come
        if (campaign.status === 'SCHEDULED') {
          markSending(ctx.db, campaign, ctx.clock.now());
          continue;
        }
        if (campaign.status !== 'SENDING') return;
        walk ??= audienceWalk(ctx, campaign, campaign.sentAt ?? ctx.clock.now());
        if (!(await fanOutBatch(ctx, campaign, walk))) return;
      }
    },
  };
}
