import type { Core } from '../core.js';
import { recordBounce, recordComplaint } from '../outbound/outcomes.js';
import { findEmailById, findEmailByMessageId, type Email } from '../emails/store.js';
import type { JobHandler, JobRunner } from '../jobs/runner.js';
import { classifyMessage } from './classify.js';
import { receive, receiveUnprocessed } from './received.js';
import { routeRecipient } from './route.js';
import { findInbound, markProcessed, type InboundMessage } from './store.js';
import { isUnsubscribeAddress, unsubscribeByMail } from './unsubscribe-mail.js';
import type { Dns } from '../dns/resolver.js';
import type { Metrics } from '../metrics/metrics.js';

/** The email a report is about: named by VERP or X-Postmill-Email-Id, else by its Message-ID; this project only. */
function reportedEmail(core: Core, projectId: string, emailId: string | null, messageId: string | null): Email | null {
  if (emailId) return findEmailById(core.db, projectId, emailId);
  return messageId ? findEmailByMessageId(core.db, projectId, messageId) : null;
}

export const INBOUND_JOB = 'inbound.process';

const toVerifiedDomain = (core: Core, msg: InboundMessage) => msg.rcptTo.some((r) => routeRecipient(core.db, r)?.kind === 'domain');

/** Classifies a stored message and turns it into a bounce, a complaint, an unsubscribe or email.received. */
/** What processing uses beside the core: DNS for the SPF, DKIM and DMARC verdicts, and the counters of /metrics. */
export interface InboundTools {
  dns: Dns;
  metrics: Metrics;
}

async function processMessage(core: Core, tools: InboundTools, msg: InboundMessage, startedAt: number): Promise<void> {
  const found = await classifyMessage(msg.raw, { mailFrom: msg.mailFrom, rcptTo: msg.rcptTo });
  tools.metrics.inbound(found.kind);
  const now = () => core.clock.now();
  if (found.kind === 'bounce' || found.kind === 'complaint') {
    const email = reportedEmail(core, msg.projectId, found.emailId, found.originalMessageId);
    if (email && found.kind === 'bounce') recordBounce(core, email, { bounceType: found.bounceType, diagnostic: found.diagnostic ?? found.status });
    if (email && found.kind === 'complaint') recordComplaint(core, email, found.feedbackType);
    return markProcessed(core.db, msg.id, found.kind, email?.id ?? null, now());
  }
  if (msg.rcptTo.some(isUnsubscribeAddress) && unsubscribeByMail(core, msg.projectId, msg.raw)) {
    return markProcessed(core.db, msg.id, 'unsubscribe', null, now());
  }
  if (!toVerifiedDomain(core, msg)) return markProcessed(core.db, msg.id, found.kind, null, now());
  await receive(core, tools.dns, msg, { autoReply: found.kind === 'auto-reply', startedAt });
}

/**
 * The `inbound.process` job. Auto-replies never bounce. Safe to run twice (processed messages are
 * skipped). A message was answered 250, so it ends recorded whatever happens: when processing
 * fails on the last attempt, mail to a verified domain becomes email.received without content
 * and with the reason; anything else is marked `unprocessable`.
 */
function inboundJob(core: Core, tools: InboundTools): JobHandler<{ id: string }> {
  return {
    // anyone may mail a project's domains: one project's flood keeps to 8 places (what all projects
    // shared before), the other 8 stay free for other projects' mail
    concurrency: 16,
    perProject: 8,
    async run(job) {
      const startedAt = performance.now();
      const msg = findInbound(core.db, job.payload.id);
      if (!msg || msg.processedAt !== null) return;
      try {
        await processMessage(core, tools, msg, startedAt);
      } catch (err) {
        if (job.attempts < job.maxAttempts) throw err;
        const reason = `Processing failed: ${err instanceof Error ? err.message : String(err)}`;
        core.log.error('inbound message could not be processed; recorded without content', { id: msg.id, reason });
        if (toVerifiedDomain(core, msg)) receiveUnprocessed(core, msg, reason, startedAt);
        else markProcessed(core.db, msg.id, 'unprocessable', null, core.clock.now());
      }
    },
  };
}

export function inboundJobs(runner: JobRunner, core: Core, tools: InboundTools): void {
  runner.register(INBOUND_JOB, inboundJob(core, tools));
}
