import { iso } from '../clock.js';
import { EMAIL_EVENTS } from '../events/catalogue.js';
import type { Ctx } from '../context.js';
import { recordBounce } from '../bounces/record.js';
import { dkimFor } from '../domains/signing.js';
import { emailEventBase } from '../emails/present.js';
import type { DeliverPayload } from '../emails/service.js';
import { verpAddress } from '../inbound/classify/verp.js';
import type { JobHandler, Reschedule } from '../jobs/runner.js';
import type { Delivery, DeliveryResult } from '../mail/outbound/deliver.js';
import { suppressionWithholding } from '../suppressions/policy.js';
import { retryDelayMs } from './schedule.js';
import { findEmailById, markDeferred, markDelivered, messageOf, setEmailStatus, storeSigned, type Email } from '../emails/store.js';
import type { SendThrottle } from './throttle.js';

const FINAL = new Set(['delivered', 'bounced', 'failed', 'suppressed']);

export interface DeliveryJobOptions {
  delivery: Delivery;
  throttle: SendThrottle;
  concurrency: number;
  /** Deferred mail older than this ends as a transient bounce. */
  maxAgeMs: number;
}

interface Outgoing {
  raw: Buffer;
  /** Signed in this attempt and not stored yet: kept only if another attempt will need it. */
  freshlySigned: boolean;
}

/** The bytes to send: signed with the sender domain's DKIM key once; a stored signed copy is reused. */
async function outgoing(ctx: Ctx, email: Email): Promise<Outgoing | null> {
  const message = messageOf(ctx.db, email.id);
  if (!message) return null;
  if (message.signed) return { raw: message.raw, freshlySigned: false };
  const key = dkimFor(ctx, email.projectId, email.senderDomain);
  if (!key) return { raw: message.raw, freshlySigned: false }; // the domain lost its verification after acceptance: send unsigned rather than lose it
  return { raw: await ctx.mailThreads.sign(message.raw, key), freshlySigned: true };
}

function recordDelivered(ctx: Ctx, email: Email, response: string): void {
  ctx.bus.tx(() => {
    const now = ctx.clock.now();
    markDelivered(ctx.db, email.id, response, now);
    ctx.bus.emit({
      projectId: email.projectId,
      name: EMAIL_EVENTS.delivery,
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), deliveredAt: iso(now) },
      at: now,
    });
  });
}

function settle(ctx: Ctx, email: Email, message: Outgoing, result: DeliveryResult, maxAgeMs: number): Reschedule | void {
  if (result.status === 'delivered') return recordDelivered(ctx, email, result.response);
  if (result.status === 'bounced') return recordBounce(ctx, email, { bounceType: 'Permanent', diagnostic: result.response });
  const now = ctx.clock.now();
  if (now - email.createdAt >= maxAgeMs) {
    return recordBounce(ctx, email, { bounceType: 'Transient', diagnostic: result.response, final: true });
  }
  // Retries send the very bytes signed now (same signature time and body hash).
  if (message.freshlySigned) storeSigned(ctx.db, email.id, message.raw);
  const deferrals = markDeferred(ctx.db, email.id, result.response, now);
  if (deferrals === null) return;
  return { retryAt: now + retryDelayMs(deferrals), reason: result.response };
}

/**
 * The durable `email.deliver` job: one email to its recipient's MX (or the relay), signed once,
 * with the VERP return path. Safe to run twice: a final status ends it at once.
 */
export function deliveryJob(ctx: Ctx, opts: DeliveryJobOptions): JobHandler<DeliverPayload> {
  return {
    concurrency: opts.concurrency,
    async run(job) {
      const email = job.projectId ? findEmailById(ctx.db, job.projectId, job.payload.emailId) : null;
      if (!email || FINAL.has(email.status)) return;
      if (suppressionWithholding(ctx.db, email.projectId, email.to, email)) {
        setEmailStatus(ctx.db, email.id, 'suppressed', null, ctx.clock.now());
        return;
      }
      const waitUntil = opts.throttle.take(email.projectId);
      if (waitUntil !== null) return { retryAt: waitUntil, reason: 'project send throttle' };
      const message = await outgoing(ctx, email);
      if (!message) return;
      const result = await opts.delivery.deliver({ from: verpAddress(email.id, email.senderDomain), to: email.to, raw: message.raw });
      ctx.metrics.delivery(result.status, email.to);
      return settle(ctx, email, message, result, opts.maxAgeMs);
    },
  };
}
