// A submitted message from its bytes to a checked send request, on a compose thread: parsing the
// MIME of a message of up to 40 MB would otherwise hold the main thread, and every project with it.
import type { Pools } from '../threads/pool.js';
import { ApiError, badRequest, validationFailed } from '../errors.js';
import { MB } from '../http/json-body.js';
import { answerParsed, checkSend, receivedParsed, type ParsedSend } from '../send/parse.js';
import { asBuffer, handedOver, type Handlers } from '../threads/serve.js';
import { sendRequestOf } from './request.js';
import { MAX_TEXT_LINES, tooManyTextLines } from '../mime/text-lines.js';

export interface ParsedSubmission {
  send: ParsedSend;
  /** The message's own Message-ID: a client's retry of it is recognised by it. */
  messageId: string | null;
}

export type SubmissionParseOps = {
  parseSubmission: { input: { bytes: Uint8Array; recipients: string[] }; output: ParsedSubmission };
};

/**
 * The parsed message. Only what the send request takes is made: mailparser's text version of the
 * HTML and HTML version of the text are skipped (a copy each of up to 40 MB, the second with its
 * links found by regexp). A message the parser refuses (past its limits on parts and headers) is
 * refused for good: sending it again cannot change that.
 */
async function parsed(raw: Buffer) {
  if (await tooManyTextLines(raw)) {
    throw validationFailed([{ field: 'body', message: `At most ${MAX_TEXT_LINES} lines of text per message`, code: 'too_big', received: `more than ${MAX_TEXT_LINES}` }]);
  }
  // loaded with the first submission: a compose thread of a daemon without one is ~20 MB smaller
  const { simpleParser } = await import('mailparser');
  return simpleParser(raw, { keepCidLinks: true, skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
}

export const submissionParseHandlers: Handlers<SubmissionParseOps> = {
  parseSubmission: async ({ bytes, recipients }) => {
    const mail = await parsed(asBuffer(bytes)).catch((err: unknown) => {
      throw err instanceof ApiError ? err : badRequest(`The message cannot be read as MIME: ${err instanceof Error ? err.message : String(err)}`);
    });
    const answer = answerParsed(checkSend(sendRequestOf(mail, recipients)), bytes.byteLength > MB);
    return { ...answer, output: { send: answer.output, messageId: mail.messageId ?? null } };
  },
};

/** Parsed on the heavy thread past 1 MB (where it never queues ahead of ordinary sends), on a compose thread below; the bytes move there. */
export async function parseSubmission(threads: Pools<SubmissionParseOps>, raw: Buffer, recipients: string[]): Promise<ParsedSubmission> {
  const pool = raw.length > MB ? threads.heavy : threads.compose;
  const { bytes, transfer } = handedOver(raw);
  const parsed = await pool.run('parseSubmission', { bytes, recipients }, transfer);
  return { ...parsed, send: receivedParsed(parsed.send) };
}
