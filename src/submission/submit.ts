import type { Core } from '../core.js';
import { ApiError, FlatError } from '../errors.js';
import { admitRequest, type Admission } from '../limits/admission.js';
import { MB } from '../http/json-body.js';
import { claimKey, releaseKey, settleKey } from '../idempotency/store.js';
import { sendEmails } from '../send/service.js';
import { ThreadDied, type Pools } from '../threads/pool.js';
import { parseSubmission, type SubmissionParseOps } from './parse.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import { SmtpReply } from '../net/smtp-reply.js';


/** The API's refusal as an SMTP reply: what the client must change is permanent (5xx), a busy server temporary (4xx). */
export function smtpReplyOf(err: unknown): SmtpReply {
  if (err instanceof SmtpReply) return err;
  // the message ended the thread it ran on alone: sent again, it would do the same
  if (err instanceof ThreadDied && err.own) {
    return err.outOfMemory
      ? new SmtpReply(552, '5.3.4 The message needs more memory to process than the server allows one message')
      : new SmtpReply(554, '5.3.0 The message could not be processed');
  }
  if (err instanceof ApiError) {
    const fields = (err.extra.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
    const text = fields ? `${err.message} (${fields})` : err.message;
    if (err.status === 429) return new SmtpReply(451, `4.7.0 ${text}`);
    if (err.status === 403) return new SmtpReply(550, `5.7.1 ${text}`);
    if (err.status < 500) return new SmtpReply(550, `5.6.0 ${text}`);
  }
  if (err instanceof FlatError && err.status < 500) return new SmtpReply(550, `5.6.0 ${err.message}`);
  return new SmtpReply(451, '4.3.0 Temporary failure, try again later');
}

/** The idempotency key of a submission: its Message-ID, so a client's retry after a lost 250 sends nothing twice. */
const keyOf = (messageId: string) => `message-id:${messageId}`;

/** What a submission needs beside the core: the API's admission (rate, heavy turns) and the threads that parse and compose. */
export interface SubmissionDeps {
  admission: Admission;
  threads: Pools<ComposeOps & SubmissionParseOps>;
}

/**
 * One submitted message: parsed into the /v1/send request and sent through the same pipeline
 * (sender domain, contact upsert, DKIM, tracking rules) within the same bounds: it counts against
 * the project's request rate, and one over 1 MB waits for a heavy request's turn as a large
 * /v1/send does. Answers the 250 text; throws SmtpReply.
 */
export async function submitMessage(core: Core, deps: SubmissionDeps, projectId: string, raw: Buffer, recipients: string[]): Promise<string> {
  try {
    admitRequest(deps.admission, projectId);
    const release = raw.length > MB ? await deps.admission.heavy.acquire(projectId) : null;
    try {
      return await sendParsed(core, deps.threads, projectId, raw, recipients);
    } finally {
      release?.();
    }
  } catch (err) {
    const reply = smtpReplyOf(err);
    if (reply.responseCode === 451 && !(err instanceof SmtpReply)) core.log.error('submission failed', { error: String(err) });
    throw reply;
  }
}

async function sendParsed(core: Core, threads: SubmissionDeps['threads'], projectId: string, raw: Buffer, recipients: string[]): Promise<string> {
  const { send, messageId } = await parseSubmission(threads, raw, recipients);
  if (!messageId) return accepted(await sendEmails(core, threads, projectId, send));
  const earlier = claimKey(core.db, projectId, keyOf(messageId), 'SMTP submission', core.clock.now());
  if (earlier?.statusCode === 200) return `2.0.0 Already accepted: ${messageId}`;
  if (earlier) throw new SmtpReply(451, `4.3.0 ${messageId} is being sent; try again later`);
  try {
    const emails = await sendEmails(core, threads, projectId, send);
    settleKey(core.db, projectId, keyOf(messageId), 200);
    return accepted(emails);
  } catch (err) {
    // The send writes all recipients in one transaction or none: a failed one may be retried.
    releaseKey(core.db, projectId, keyOf(messageId));
    throw err;
  }
}

const accepted = (emails: { email: string }[]) => `2.0.0 Queued as ${emails.map((e) => e.email).join(' ')}`;
