import type { Ctx } from '../context.js';
import { recordBounce, recordComplaint } from '../bounces/record.js';
import { findEmailById, findEmailByMessageId, type Email } from '../emails/store.js';
import type { JobHandler, JobRunner } from '../jobs/runner.js';
import { classifyMessage } from './classify.js';
import { receive } from './received.js';
import { routeRecipient } from './route.js';
import { findInbound, markProcessed } from './store.js';
import { isUnsubscribeAddress, unsubscribeByMail } from './unsubscribe-mail.js';

/** The email a report is about: named by VERP or X-Postmill-Email-Id, else by its Message-ID; this project only. */
function reportedEmail(ctx: Ctx, projectId: string, emailId: string | null, messageId: string | null): Email | null {
  if (emailId) return findEmailById(ctx.db, projectId, emailId);
  return messageId ? findEmailByMessageId(ctx.db, projectId, messageId) : null;
}

export const INBOUND_JOB = 'inbound.process';

/**
 * The `inbound.process` job: classifies a stored message and turns it into bounces, complaints
 * or email.received. Auto-replies never bounce. Safe to run twice (processed messages are skipped).
 */
function inboundJob(ctx: Ctx): JobHandler<{ id: string }> {
  return {
    concurrency: 8,
    async run(job) {
      const startedAt = performance.now();
      const msg = findInbound(ctx.db, job.payload.id);
      if (!msg || msg.processedAt !== null) return;
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
      const toDomain = msg.rcptTo.some((r) => routeRecipient(ctx.db, r)?.kind === 'domain');
      if (!toDomain) return markProcessed(ctx.db, msg.id, found.kind, null, now());
      await receive(ctx, msg, { autoReply: found.kind === 'auto-reply', startedAt });
    },
  };
}

export function inboundJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(INBOUND_JOB, inboundJob(ctx));
}
