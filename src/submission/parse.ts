// A submitted message from its bytes to a checked send request, on a compose thread: parsing the
// MIME of a message of up to 40 MB would otherwise hold the main thread, and every project with it.
import type { Ctx } from '../context.js';
import { MB } from '../http/json-body.js';
import { answerParsed, checkSend, receivedParsed, type ParsedSend } from '../send/parse.js';
import { asBuffer, handedOver, type Handlers } from '../threads/serve.js';
import { sendRequestOf } from './request.js';

export interface ParsedSubmission {
  send: ParsedSend;
  /** The message's own Message-ID: a client's retry of it is recognised by it. */
  messageId: string | null;
}

export type SubmissionParseOps = {
  parseSubmission: { input: { bytes: Uint8Array; recipients: string[] }; output: ParsedSubmission };
};

export const submissionParseHandlers: Handlers<SubmissionParseOps> = {
  parseSubmission: async ({ bytes, recipients }) => {
    // loaded with the first submission: a compose thread of a daemon without one is ~20 MB smaller
    const { simpleParser } = await import('mailparser');
    const parsed = await simpleParser(asBuffer(bytes), { keepCidLinks: true });
    const answer = answerParsed(checkSend(sendRequestOf(parsed, recipients)), bytes.byteLength > MB);
    return { ...answer, output: { send: answer.output, messageId: parsed.messageId ?? null } };
  },
};

/** Parsed on the heavy thread past 1 MB (where it never queues ahead of ordinary sends), on a compose thread below; the bytes move there. */
export async function parseSubmission(ctx: Ctx, raw: Buffer, recipients: string[]): Promise<ParsedSubmission> {
  const pool = raw.length > MB ? ctx.threads.heavy : ctx.threads.compose;
  const { bytes, transfer } = handedOver(raw);
  const parsed = await pool.run('parseSubmission', { bytes, recipients }, transfer);
  return { ...parsed, send: receivedParsed(parsed.send) };
}
