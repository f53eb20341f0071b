import { createCommitter } from '../bus/group-commit.js';
import { iso } from '../clock.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import type { Core } from '../core.js';
import { recordBounce } from './outcomes.js';
import { emailEventBase } from '../emails/present.js';
import type { DeliverPayload } from './queue.js';
import { verpAddress } from '../emails/verp.js';
import type { JobHandler, Reschedule } from '../jobs/runner.js';
import type { Delivery, DeliveryResult } from './engine/deliver.js';
import { suppressionWithholding } from '../suppressions/policy.js';
import { Pacer } from './pacer.js';
import { Warmup, type WarmupConfig } from './warmup.js';
import { retryDelayMs } from './retry-schedule.js';
import {
  emailStatusOf,
  findDeliveries,
  findDelivery,
  findStoredMessage,
  markDeferred,
  markDelivered,
  setEmailStatus,
  storeSigned,
  type Email,
  type StoredDelivery,
} from '../emails/store.js';
import { ByteBudget } from './byte-budget.js';
import { campaignCancelled } from './cancelled-store.js';
import { outgoing, type Outgoing } from './outgoing.js';
import { insertAttempt } from '../emails/log-store.js';
import type { SlidingWindow } from '../limits/sliding-window.js';
import type { MailThreads } from './dkim/threads.js';
import type { Fanouts } from './fanouts.js';
import type { DeliverySummary } from './summary.js';
import type { Metrics } from '../metrics/metrics.js';

const FINAL = new Set(['delivered', 'bounced', 'failed', 'suppressed']);

export interface DeliveryJobOptions {
  /** DKIM signing on its threads. */
  signer: MailThreads;
  /** Campaign fan-outs running: bulk delivery keeps to a few places meanwhile. */
  fanouts: Fanouts;
  metrics: Metrics;
  /** The journal's line a minute on what delivery did. */
  summary: DeliverySummary;
  delivery: Delivery;
  /** `delivery.throttlePerMinute`: deliveries started per rolling minute per project (it holds the queue, never the API); null is none. */
  throttle: SlidingWindow | null;
  concurrency: number;
  /** Deferred mail older than this ends as a transient bounce. */
  maxAgeMs: number;
  /** `delivery.bulkPerSecond`: bulk deliveries started per second per project; 0 or absent is no limit. */
  bulkPerSecond?: number;
  /** `delivery.warmup`: a new sender domain's daily budget, which bulk mail waits for; off when absent. */
  warmup?: WarmupConfig;
}

/** Deliveries claimed (and finished ones written) together once this many places are free. */
const CLAIM_BATCH = 32;

/** Outcomes are written together: up to a claim batch of them, or what came within 5 ms (a job keeps its place until then). */
const OUTCOME_BATCH = { items: CLAIM_BATCH, waitMs: 5 };

/**
 * Large messages (stored above READ_AHEAD_MESSAGE_BYTES) in delivery at once, by stored size: two
 * 40 MB sends deflate to about 15 MB each. In flight a message takes a few times its stored size.
 */
const LARGE_MESSAGE_BUDGET = 16 * 1024 * 1024;

/** The share of `delivery.concurrency` bulk mail may hold: the rest stays free for transactional mail. */
export const bulkShare = (concurrency: number) => Math.max(1, concurrency - Math.ceil(concurrency / 5));

/**
 * Bulk places while a campaign fans out (see src/outbound/fanouts.ts): a couple, so other projects'
 * bulk mail keeps moving. 100,000 recipients fanned out in 31 s delivering at the full share, 22 s
 * with 8 places, 19 s with 4 and 17.5 s with 2; the last of them reached the sink no later
 * (60-65 s in all; test/bench/campaign.bench.ts).
 */
export const FANOUT_BULK_PLACES = 2;

/** The places bulk mail may hold now: its share, or a few while a campaign fans out. */
export const bulkPlaces = (concurrency: number, fanningOut: boolean) => (fanningOut ? Math.min(FANOUT_BULK_PLACES, bulkShare(concurrency)) : bulkShare(concurrency));

function recordDelivered(core: Core, email: Email, response: string): void {
  const now = core.clock.now();
  markDelivered(core.db, email.id, response, now);
  core.bus.emit({
    projectId: email.projectId,
    name: EMAIL_EVENTS.delivery,
    contactId: email.contactId,
    emailId: email.id,
    data: { ...emailEventBase(email), deliveredAt: iso(now) },
    at: now,
  });
}

type Attempted = Exclude<DeliveryResult, { status: 'withdrawn' | 'held' }>;

function settle(core: Core, email: Email, message: Outgoing, result: Attempted, maxAgeMs: number): Reschedule | void {
  insertAttempt(core.db, email.id, { at: core.clock.now(), mx: result.host, tls: result.tls, reply: result.response, outcome: result.status });
  if (result.status === 'delivered') return recordDelivered(core, email, result.response);
  if (result.status === 'bounced') return recordBounce(core, email, { bounceType: 'Permanent', diagnostic: result.response });
  const now = core.clock.now();
  if (now - email.createdAt >= maxAgeMs) {
    return recordBounce(core, email, { bounceType: 'Transient', diagnostic: result.response, final: true });
  }
  // Retries send the very bytes signed now (same signature time and body hash).
  if (message.freshlySigned) storeSigned(core.db, email.id, message.head ? Buffer.concat([message.head, message.raw]) : message.raw);
  // A provider's throttling is not the message's fault: it waits for the provider's queue without using up a step of its retries.
  const throttled = result.resumeAt !== undefined;
  const deferrals = markDeferred(core.db, email.id, result.response, now, !throttled);
  if (deferrals === null) return;
  return { retryAt: result.resumeAt ?? now + retryDelayMs(deferrals), reason: result.response };
}

/**
 * The durable `email.deliver` job: one email to its recipient's MX (or the relay), signed once,
 * with the VERP return path. Bulk-lane jobs keep to the project's bulk rate and wait behind
 * transactional mail for a place at their destination. Outcomes are written in the group
 * transaction of the turn (one commit for every delivery that finished in it). Safe to run twice:
 * a final status ends it at once.
 */
export function deliveryJob(core: Core, opts: DeliveryJobOptions): JobHandler<DeliverPayload> {
  const commit = createCommitter(core.bus, OUTCOME_BATCH);
  const pacer = new Pacer(core.clock, opts.bulkPerSecond ?? 0);
  const warmup = new Warmup(core.db, core.clock, opts.warmup ?? { enabled: false, schedule: [] });
  const largeMessages = new ByteBudget(LARGE_MESSAGE_BUDGET);
  /** Emails read for jobs just claimed, until their run takes them. */
  const prepared = new Map<string, StoredDelivery>();
  return {
    concurrency: opts.concurrency,
    // Deliveries hold a place for one SMTP transaction: the claim's rotation gives another project's
    // mail the next free places, and a lone project keeps every place (the drain rate).
    perProject: opts.concurrency,
    // read at every claim: the share shrinks while a campaign fans out
    get bulkConcurrency() {
      return bulkPlaces(opts.concurrency, opts.fanouts.running);
    },
    claimBatch: CLAIM_BATCH,
    prepare(jobs) {
      const wanted = jobs.flatMap((job) => (job.projectId ? [{ projectId: job.projectId, emailId: job.payload.emailId }] : []));
      for (const [id, stored] of findDeliveries(core.db, wanted)) prepared.set(id, stored);
    },
    async run(job) {
      const { emailId } = job.payload;
      const stored = prepared.get(emailId) ?? (job.projectId ? findDelivery(core.db, job.projectId, emailId) : null);
      prepared.delete(emailId);
      if (!stored || FINAL.has(stored.email.status)) return;
      const { email } = stored;
      if (suppressionWithholding(core.db, email.projectId, email.to, email)) {
        return commit(() => setEmailStatus(core.db, email.id, 'suppressed', null, core.clock.now()));
      }
      const bulk = job.lane === 'bulk';
      if (bulk && email.campaignId !== null && campaignCancelled(core.db, email.campaignId)) {
        return commit(() => setEmailStatus(core.db, email.id, 'failed', 'campaign cancelled', core.clock.now()));
      }
      // the throttle is asked first and counts last: a job the pacer sends back takes no place in it
      const throttledUntil = opts.throttle?.fullUntil(email.projectId) ?? null;
      if (throttledUntil !== null) return { retryAt: throttledUntil, reason: 'project send throttle' };
      const paced = bulk ? pacer.take(email.projectId) : null;
      if (paced !== null) return { retryAt: paced, reason: 'delivery.bulkPerSecond' };
      const warmedUp = warmup.take(email.projectId, email.senderDomain, bulk);
      if (warmedUp !== null) return { retryAt: warmedUp, reason: `delivery.warmup: the day's budget of ${email.senderDomain} is used` };
      opts.throttle?.hit(email.projectId);
      let attempted = false;
      // a large message is read only once delivery has room for it
      const release = stored.message ? null : await largeMessages.take(stored.storedSize);
      try {
        const found = stored.message ?? findStoredMessage(core.db, email.id);
        if (!found) return;
        const message = await outgoing(core, opts.signer, email, found);
        // A bulk email may wait long for its place: a campaign cancelled meanwhile ended it, and it is not sent.
        const stillWanted = bulk ? () => !FINAL.has(emailStatusOf(core.db, email.id) ?? 'failed') : undefined;
        const ended = opts.metrics.inDelivery(bulk ? 'bulk' : 'transactional');
        const result = await opts.delivery
          .deliver({ emailId: email.id, from: verpAddress(email.id, email.senderDomain), to: email.to, head: message.head, raw: message.raw, bulk, stillWanted })
          .finally(ended);
        if (result.status === 'withdrawn') return;
        if (result.status === 'held') return { retryAt: result.until, reason: result.reason };
        attempted = true;
        opts.metrics.delivery(result.status, email.to);
        opts.summary.record(result.status, email.to, result.response);
        return await commit(() => {
          warmup.record(email.projectId, email.senderDomain);
          return settle(core, email, message, result, opts.maxAgeMs);
        });
      } finally {
        release?.();
        if (!attempted) warmup.giveBack(email.projectId, email.senderDomain);
      }
    },
  };
}
