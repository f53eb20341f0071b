import type { Ctx } from '../context.js';
import { recordBounce, recordComplaint } from '../outbound/outcomes.js';
import { findEmailById, findEmailByMessageId, type Email } from '../emails/store.js';
import type { JobHandler, JobRunner } from '../jobs/runner.js';
import { classifyMessage } from './classify.js';
import { receive, receiveUnprocessed } from './received.js';
import { routeRecipient } from './route.js';
import { findInbound, markProcessed, type InboundMessage } from './store.js';
import { isUnsubscribeAddress, unsubscribeByMail } from './unsubscribe-mail.js';

/** The email a report is about: named by VERP or X-Postmill-Email-Id, else by its Message-ID; this project only. */
function reportedEmail(ctx: Ctx, projectId: string, emailId: string | null, messageId: string | null): Email | null {
  if (emailId) return findEmailById(ctx.db, projectId, emailId);
  return messageId ? findEmailByMessageId(ctx.db, projectId, messageId) : null;
}

export const INBOUND_JOB = 'inbound.process';

const toVerifiedDomain = (ctx: Ctx, msg: InboundMessage) => msg.rcptTo.some((r) => routeRecipient(ctx.db, r)?.kind === 'domain');

/** Classifies a stored message and turns it into a bounce, a complaint, an unsubscribe or email.received. */
async function processMessage(ctx: Ctx, msg: InboundMessage, startedAt: number): Promise<void> {
  const found = await classifyMessage(msg.raw, { mailFrom: msg.mailFrom, rcptTo: msg.rcptTo });
  ctx.metrics.inbound(found.kind);
  const now = () => ctx.clock.now();
  if (found.kind === 'bounce' || found.kind === 'complaint') {
    const email = reportedEmail(ctx, msg.projectId, found.emailId, found.originalMessageId);
    if (email && found.kind === 'bounce') recordBounce(ctx, email, { bounceType: found.bounceType, diagnostic: found.diagnostic ?? found.status });
    if (email && found.kind === 'complaint') recordComplaint(ctx, email, found.feedbackType);
    return markProcessed(ctx.db, msg.id, found.kind, email?.id ?? null, now());
  }
  if (msg.rcptTo.some(isUnsubscribeAddress) && unsubscribeByMail(ctx, msg.projectId, msg.raw)) {
    return markProcessed(ctx.db, msg.id, 'unsubscribe', null, now());
  }
  if (!toVerifiedDomain(ctx, msg)) return markProcessed(ctx.db, msg.id, found.kind, null, now());
  await receive(ctx, msg, { autoReply: found.kind === 'auto-reply', startedAt });
}

/**
 * The `inbound.process` job. Auto-replies never bounce. Safe to run twice (processed messages are
 * skipped). A message was answered 250, so it ends recorded whatever happens: when processing
 * fails on the last attempt, mail to a verified domain becomes email.received without content
 * and with the reason; anything else is marked `unprocessable`.
 */
function inboundJob(ctx: Ctx): JobHandler<{ id: string }> {
  return {
    // anyone may mail a project's domains: one project's flood keeps to 8 places (what all projects
    // shared before), the other 8 stay free for other projects' mail
    concurrency: 16,
    perProject: 8,
    async run(job) {
      const startedAt = performance.now();
      const msg = findInbound(ctx.db, job.payload.id);
      if (!msg || msg.processedAt !== null) return;
      try {
        await processMessage(ctx, msg, startedAt);
      } catch (err) {
        if (job.attempts < job.maxAttempts) throw err;
        const reason = `Processing failed: ${err instanceof Error ? err.message : String(err)}`;
        ctx.log.error('inbound message could not be processed; recorded without content', { id: msg.id, reason });
        if (toVerifiedDomain(ctx, msg)) receiveUnprocessed(ctx, msg, reason, startedAt);
        else markProcessed(ctx.db, msg.id, 'unprocessable', null, ctx.clock.now());
      }
    },
  };
}

export function inboundJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(INBOUND_JOB, inboundJob(ctx));
}
