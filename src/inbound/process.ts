import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import { MB } from '../http/json-body.js';
import { recordBounce, recordComplaint } from '../outbound/outcomes.js';
import { findEmailById, findEmailByMessageId, type Email } from '../emails/store.js';
import type { JobHandler, JobRunner, Reschedule } from '../jobs/runner.js';
import { lineBreaks } from '../mime/text-lines.js';
import { authVerdicts, checkSpf, dkimKeys } from './auth.js';
import { unreadable } from './content.js';
import type { InboundInspectOps, Inspection } from './inspect.js';
import { receive, receiveUnprocessed } from './received.js';
import { ThreadDied, type Pools } from '../threads/pool.js';
import { asBuffer, handedOver } from '../threads/serve.js';
import { routeRecipient } from './route.js';
import { findInbound, markProcessed, type InboundMessage } from './store.js';
import { isUnsubscribeAddress, unsubscribeByMail } from './unsubscribe-mail.js';
import type { Dns } from '../dns/resolver.js';
import type { FairGate } from '../limits/fair-gate.js';
import type { Metrics } from '../metrics/metrics.js';

/** The email a report is about: named by VERP or X-Postmill-Email-Id, else by its Message-ID; this project only. */
function reportedEmail(core: Core, projectId: string, emailId: string | null, messageId: string | null): Email | null {
  if (emailId) return findEmailById(core.db, projectId, emailId);
  return messageId ? findEmailByMessageId(core.db, projectId, messageId) : null;
}

export const INBOUND_JOB = 'inbound.process';

/** How long a large message waits when its project's heavy turns are all taken (429 of the gate). */
const TURN_RETRY_MS = 5_000;
/**
 * The line hashes a compose thread takes on for one message, ~0.1-0.25 s: every DKIM signature has
 * mailauth canonicalise every line of the body (1 MB of short lines under 10 signatures took 2.2 s),
 * and the compose threads serve every project's sends. Past it the message goes to the heavy thread.
 */
const COMPOSE_LINE_HASHES = 100_000;

/** Whether reading the message takes the heavy thread: its size, or the DKIM work it asks for. */
const isHeavy = (raw: Buffer, signatures: number) =>
  raw.length > MB || (signatures > 0 && signatures * lineBreaks(raw, COMPOSE_LINE_HASHES) > COMPOSE_LINE_HASHES);

const toVerifiedDomain = (core: Core, msg: InboundMessage) => msg.rcptTo.some((r) => routeRecipient(core.db, r)?.kind === 'domain');

/** What processing uses beside the core: DNS for the SPF, DKIM and DMARC verdicts, the threads that read the message, the heavy turns, and the counters of /metrics. */
export interface InboundTools {
  dns: Dns;
  metrics: Metrics;
  threads: Pools<InboundInspectOps>;
  /** Turns of heavy work per project (the admission's heavy gate, shared with large /v1/send and submissions). */
  heavy: FairGate;
}

/**
 * The message read on a thread (inspect.ts), null when it must wait. One over 1 MB, or whose DKIM
 * signatures ask for many line hashes, goes to the heavy thread after a heavy turn of its project,
 * as a large /v1/send or submission does: mail a stranger sends takes turns with a project's own
 * heavy work instead of queueing ahead of it (or of every project's sends on the compose threads),
 * and waits when the gate is full. The bytes move to the thread and back (`msg.raw` is let go of). A message that ended
 * the thread alone is not read again (it would end the next one too): it comes back unread, with why.
 */
async function inspected(core: Core, tools: InboundTools, msg: InboundMessage, read: boolean): Promise<(Inspection & { raw: Buffer }) | null> {
  const keys = read ? await dkimKeys(tools.dns, msg.raw) : null;
  const heavy = isHeavy(msg.raw, keys?.signatures ?? 0);
  let release: (() => void) | null = null;
  try {
    if (heavy) release = await tools.heavy.acquire(msg.projectId);
    const { bytes, transfer } = handedOver(msg.raw);
    const input = { bytes, envelope: { mailFrom: msg.mailFrom, rcptTo: msg.rcptTo }, read: keys && { answers: keys.answers } };
    const found = await (heavy ? tools.threads.heavy : tools.threads.compose).run('inspectInbound', input, transfer);
    return { ...found, raw: asBuffer(found.bytes) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) return null;
    if (!(err instanceof ThreadDied && err.own)) throw err;
    const unread = err.outOfMemory ? 'The message needs more memory to read than the daemon allows one message' : `The message could not be read: ${err.reason}`;
    return { classification: { kind: 'received' }, unread, content: null, dkim: null, raw: findInbound(core.db, msg.id)?.raw ?? Buffer.alloc(0) };
  } finally {
    release?.();
  }
}

/**
 * Classifies a stored message and turns it into a bounce, a complaint, an unsubscribe or
 * email.received. The main thread only looks names up and writes: the message is read on a thread.
 */
async function processMessage(core: Core, tools: InboundTools, msg: InboundMessage, startedAt: number): Promise<Reschedule | void> {
  const read = toVerifiedDomain(core, msg);
  // SPF reads no part of the message: it is asked while the thread reads it
  const spf = read ? checkSpf(tools.dns, { ip: msg.remoteIp, helo: msg.helo, sender: msg.mailFrom, mta: core.config.hostname }) : null;
  const found = await inspected(core, tools, msg, read);
  if (!found) return { retryAt: core.clock.now() + TURN_RETRY_MS, reason: 'waiting for a heavy turn of the project' };
  const { classification, raw } = found;
  tools.metrics.inbound(found.unread ? 'unprocessable' : classification.kind);
  const now = () => core.clock.now();
  if (classification.kind === 'bounce' || classification.kind === 'complaint') {
    const email = reportedEmail(core, msg.projectId, classification.emailId, classification.originalMessageId);
    if (email && classification.kind === 'bounce') recordBounce(core, email, { bounceType: classification.bounceType, diagnostic: classification.diagnostic ?? classification.status });
    if (email && classification.kind === 'complaint') recordComplaint(core, email, classification.feedbackType);
    return markProcessed(core.db, msg.id, classification.kind, email?.id ?? null, now());
  }
  if (msg.rcptTo.some(isUnsubscribeAddress) && unsubscribeByMail(core, msg.projectId, raw)) {
    return markProcessed(core.db, msg.id, 'unsubscribe', null, now());
  }
  if (!read) {
    if (found.unread) core.log.warn('inbound message not read', { id: msg.id, reason: found.unread });
    return markProcessed(core.db, msg.id, found.unread ? 'unprocessable' : classification.kind, null, now());
  }
  const content = found.content ?? unreadable(msg.mailFrom, found.unread ?? 'The message was not read');
  const verdicts = await authVerdicts(tools.dns, await spf, found.dkim);
  await receive(core, { ...msg, raw }, content, verdicts, { autoReply: classification.kind === 'auto-reply', startedAt });
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
        return await processMessage(core, tools, msg, startedAt);
      } catch (err) {
        if (job.attempts < job.maxAttempts) throw err;
        const reason = `Processing failed: ${err instanceof Error ? err.message : String(err)}`;
        core.log.error('inbound message could not be processed; recorded without content', { id: msg.id, reason });
        // read again: its bytes went to the thread that failed
        const stored = findInbound(core.db, msg.id) ?? msg;
        if (toVerifiedDomain(core, stored)) receiveUnprocessed(core, stored, reason, startedAt);
        else markProcessed(core.db, msg.id, 'unprocessable', null, core.clock.now());
      }
    },
  };
}

export function inboundJobs(runner: JobRunner, core: Core, tools: InboundTools): void {
  runner.register(INBOUND_JOB, inboundJob(core, tools));
}
