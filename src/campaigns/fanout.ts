// The durable fan-out of a campaign: walks the audience in keyset batches; each batch is composed
// off the main thread, then written in one transaction with the walk's new position, so a restart
// continues where the last committed batch ended. The recipient key refuses a second email to a contact.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Core } from '../core.js';
import type { JobHandler } from '../jobs/runner.js';
import type { Contact } from '../contacts/store.js';
import type { MessageContent } from '../compose/content.js';
import { composeMessages, storeMessage, type Addressed, type Composition } from '../compose/pipeline.js';
import { suppressedAmong } from '../suppressions/store.js';
import type { MatchingWalk } from '../filters/sqlite.js';
import { audienceWalk } from './audience.js';
import { campaignContent } from './content.js';
import { addRecipient, advanceWalk, findCampaignById, finishWalk, markSending, type Campaign } from './store.js';
import { newEmailId } from '../emails/ids.js';
import type { Pools } from '../threads/pool.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import type { Fanouts } from '../outbound/fanouts.js';
import type { CampaignProgressLog } from './progress-log.js';

export const FANOUT_JOB = 'campaign.fanout';

export interface FanoutPayload {
  campaignId: string;
  /** The send round that queued this job: a newer send or a cancel makes it stale. */
  round: number;
}

/** Contacts per batch: large enough to keep the compose threads busy, small enough that its transaction stays short. */
const BATCH = 50;

const isCurrent = (c: Campaign | null, round: number): c is Campaign => c !== null && c.sendRound === round && c.status === 'SENDING';

/** Contacts of the audience read together, and where the walk stands after them. */
interface Batch {
  contacts: Contact[];
  /** The walk's position once this batch is written (the end of the last window visited). */
  last: string;
}

/** A batch of the audience read and composed, ready to be written. */
interface Composed extends Batch {
  suppressed: Set<string>;
  addressed: Addressed[];
  composed: Composition[];
}

/**
 * Batches composed ahead of the one being written. Two keep the compose threads busy while the
 * main thread writes: with one, each waited for the other's turn (reading and personalising the
 * next batch, posting it, taking the answer), and neither got past two thirds of a core.
 */
const AHEAD = 2;

/**
 * The next contacts of the audience after `after`: steps of the walk (each a bounded read on a
 * reader thread) until one finds some; null once the whole audience has been walked, or when the
 * send was cancelled (or sent again) during a stretch of contacts outside the audience.
 */
async function readBatch(core: Core, campaign: Campaign, walk: MatchingWalk, after: string | null): Promise<Batch | null> {
  for (let at = after; ; ) {
    const step = await walk.next(at, BATCH);
    if (step.last === null) return null;
    if (step.contacts.length > 0) return { contacts: step.contacts, last: step.last };
    if (!isCurrent(findCampaignById(core.db, campaign.projectId, campaign.id), campaign.sendRound)) return null;
    at = step.last;
  }
}

/** The batch's messages, composed off the main thread (suppressed addresses left out). */
function composeBatch(core: Core, threads: Pools<ComposeOps>, campaign: Campaign, content: MessageContent, batch: Batch): Promise<Composed> {
  const suppressed = suppressedAmong(core.db, campaign.projectId, batch.contacts.map((c) => c.email));
  const addressed = batch.contacts
    .filter((contact) => !suppressed.has(contact.email.toLowerCase()))
    .map((contact) => ({ recipient: { contact, oneOff: {}, name: null }, emailId: newEmailId(core.clock.now()) }));
  return composeMessages(core, threads, content, addressed, Infinity).then((composed) => ({ ...batch, suppressed, addressed, composed }));
}

/** Writes a composed batch with the walk's new position; false when the send was cancelled (or sent again) meanwhile and the batch dropped. */
function writeBatch(core: Core, campaign: Campaign, content: MessageContent, { contacts, last, suppressed, addressed, composed }: Composed): boolean {
  return core.bus.tx(() => {
    if (!isCurrent(findCampaignById(core.db, campaign.projectId, campaign.id), campaign.sendRound)) return false;
    addressed.forEach(({ recipient, emailId }, i) => {
      const { contact } = recipient;
      if (addRecipient(core.db, campaign.id, contact.id, emailId)) storeMessage(core, content, { contactId: contact.id, email: contact.email }, emailId, composed[i]!, 'bulk');
    });
    const skipped = contacts.filter((c) => suppressed.has(c.email.toLowerCase()) && addRecipient(core.db, campaign.id, c.id, null)).length;
    advanceWalk(core.db, campaign.id, last, skipped);
    return true;
  });
}

/**
 * Walks the rest of the audience: the next batches are read (one after the other, each where the
 * last ended) and composed on the compose threads while this one is written on the main thread,
 * so neither waits for the other. A restart resumes from the last written batch; batches composed
 * ahead and never written are simply composed again. A read that fails (past its budget) fails
 * the run with its reason.
 */
async function fanOut(core: Core, { threads, progress }: FanoutTools, campaign: Campaign, walk: MatchingWalk): Promise<void> {
  const content = campaignContent(core, campaign);
  const ahead: Promise<Composed | null>[] = [];
  let position: string | null = campaign.walkedTo;
  let walked = false;
  let reads: Promise<void> = Promise.resolve();
  const readAhead = () => {
    while (!walked && ahead.length < AHEAD) {
      const read = reads.then(() => (walked ? null : readBatch(core, campaign, walk, position)));
      reads = read.then(
        (batch) => {
          if (batch) position = batch.last;
          else walked = true;
        },
        () => {
          walked = true;
        },
      );
      const composing = read.then((batch) => batch && composeBatch(core, threads, campaign, content, batch));
      // a failure surfaces where the batch is awaited; one composed ahead of a cancel is never awaited
      composing.catch(() => {});
      ahead.push(composing);
    }
  };
  readAhead();
  for (;;) {
    // every read is in `ahead` before it can end the walk: the one that does answers null
    const composed = await ahead.shift()!;
    if (!composed) {
      finishWalk(core.db, campaign, core.clock.now());
      return progress.fanOutDone(campaign);
    }
    // the threads get the next batches before the main thread turns to writing this one
    readAhead();
    // One write per turn of the event loop: two batches composed meanwhile would otherwise be
    // written back to back, and requests that came in waited for both (track p99 48 -> 32 ms).
    await nextTurn();
    if (!writeBatch(core, campaign, content, composed)) return;
  }
}

/**
 * What a fan-out uses beside the core: the compose threads, the count of fan-outs running that bulk
 * delivery yields to, and the journal's campaign lines.
 */
export interface FanoutTools {
  threads: Pools<ComposeOps>;
  fanouts: Fanouts;
  progress: CampaignProgressLog;
}

export function fanoutJob(core: Core, tools: FanoutTools): JobHandler<FanoutPayload> {
  return {
    concurrency: 2,
    async run(job) {
      const { campaignId, round } = job.payload;
      for (;;) {
        const campaign = job.projectId ? findCampaignById(core.db, job.projectId, campaignId) : null;
        if (!campaign || campaign.sendRound !== round || campaign.walked) return;
        // a scheduled send whose time has come
        if (campaign.status === 'SCHEDULED') {
          markSending(core.db, campaign, core.clock.now());
          continue;
        }
        if (campaign.status !== 'SENDING') return;
        // planned once per run; after a restart the audience keeps the times of the send's start
        if (campaign.walkedTo === null) tools.progress.fanOutStarted(campaign);
        return tools.fanouts.run(() => fanOut(core, tools, campaign, audienceWalk(core, campaign, campaign.sentAt ?? core.clock.now())));
      }
    },
  };
}
