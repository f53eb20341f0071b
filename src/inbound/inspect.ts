// A received message is read on a compose thread (the heavy one past 1 MB), never on the event
// loop: anyone can send mail to a verified domain, and a MIME parse or a DKIM body hash of 38 MB
// took seconds and a GB there. The thread classifies the message, reads what email.received tells
// of it and verifies its DKIM signatures, within bounds on lines (the line breaks of the message
// and of its decoded text, text-lines.ts), parts and header blocks (mailparser's limits); a message
// past them is not read, and the main thread records why.
import { MAX_MESSAGE_LINES, MAX_TEXT_LINES, tooManyMessageLines, tooManyTextLines } from '../mime/text-lines.js';
import { asBuffer, type Handlers } from '../threads/serve.js';
import { worthCollecting } from '../threads/collect.js';
import { verifyDkim, type DkimOutcome, type DnsAnswers } from './auth.js';
import type { Classification, Envelope } from './classify.js';
import type { Content } from './content.js';

/** What the thread found. */
export interface Inspection {
  classification: Classification;
  /** Why the message was not read (past the bounds, or it ended the thread it ran on); null when it was. */
  unread: string | null;
  /** What email.received tells of it, when asked for and read. */
  content: Content | null;
  /** Its DKIM verdict, when asked for and read. */
  dkim: DkimOutcome | null;
}

export interface InspectInput {
  bytes: Uint8Array;
  envelope: Envelope;
  /** Mail for a verified domain: its content and DKIM are read too, with the key records looked up for it. Null: classified only. */
  read: { answers: DnsAnswers } | null;
}

export type InboundInspectOps = {
  inspectInbound: { input: InspectInput; output: Inspection & { bytes: Uint8Array } };
};

/** Why the message is past the line bounds, or null. */
async function linesRefusal(raw: Buffer): Promise<string | null> {
  if (tooManyMessageLines(raw)) return `The message has more than ${MAX_MESSAGE_LINES} lines`;
  // a structure the splitter refuses (past 1,000 parts) mailparser refuses too, with its reason: not a bound of ours
  const tooMany = await tooManyTextLines(raw).catch(() => false);
  return tooMany ? `The text of the message has more than ${MAX_TEXT_LINES} lines` : null;
}

async function inspect(raw: Buffer, envelope: Envelope, read: InspectInput['read']): Promise<Inspection> {
  const unread = await linesRefusal(raw);
  if (unread) return { classification: { kind: 'received' }, unread, content: null, dkim: null };
  // loaded with the first received message: a compose thread of a daemon that receives none stays smaller
  const { classifyMessage } = await import('./classify.js');
  const classification = await classifyMessage(raw, envelope);
  if (!read || classification.kind === 'bounce' || classification.kind === 'complaint') return { classification, unread: null, content: null, dkim: null };
  const { readContent } = await import('./content.js');
  return { classification, unread: null, content: await readContent(raw, envelope.mailFrom), dkim: await verifyDkim(raw, read.answers, envelope.mailFrom) };
}

export const inboundInspectHandlers: Handlers<InboundInspectOps> = {
  inspectInbound: async ({ bytes, envelope, read }) => {
    const raw = asBuffer(bytes);
    const found = await inspect(raw, envelope, read);
    // the bytes go back: the main thread stores and scans them
    return { output: { ...found, bytes }, transfer: [bytes.buffer as ArrayBuffer], collect: worthCollecting(raw.length) };
  },
};
