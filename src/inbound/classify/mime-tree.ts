import { MailParser } from 'mailparser';
import type { AttachmentStream, Headers, MessageText } from 'mailparser';
import { plainTextOf } from '../../compose/text/plain-text.js';

/** What classification needs of one message, read from its MIME tree. */
export interface MessageParts {
  /** Top-level headers, empty when the message has none. */
  headers: Headers;
  from: string | null;
  subject: string | null;
  /** Body text (tag-stripped HTML when there is no plain text), at most TEXT_LIMIT characters. */
  text: string;
  /** The first message/delivery-status part. */
  deliveryStatus: string | null;
  /** The first message/feedback-report part. */
  feedbackReport: string | null;
  /** The first returned original: message/rfc822 or text/rfc822-headers (only its head is needed). */
  original: string | null;
}

type ReportSlot = 'deliveryStatus' | 'feedbackReport' | 'original';

const REPORT_SLOTS: ReadonlyMap<string, ReportSlot> = new Map([
  ['message/delivery-status', 'deliveryStatus'],
  ['message/global-delivery-status', 'deliveryStatus'],
  ['message/feedback-report', 'feedbackReport'],
  ['message/rfc822', 'original'],
  ['message/global', 'original'],
  ['text/rfc822-headers', 'original'],
  ['message/global-headers', 'original'],
]);

// Report parts and the head of a returned message are small; a bounce that returns a 20 MB
// original is read past, not buffered.
const PART_LIMIT = 64 * 1024;
const TEXT_LIMIT = 64 * 1024;

// Report parts must arrive as parts, not folded into the text (keepDeliveryStatus), and a
// returned message as one raw part (ignoreEmbedded). Everything that costs time and is not
// needed here (HTML conversion, links, checksums) is off.
const PARSER_OPTIONS = {
  keepDeliveryStatus: true,
  ignoreEmbedded: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  checksumAlgo: false,
} as const;

/**
 * Walks the MIME tree of `raw`. Never rejects: a message the parser gives up on yields what
 * was read up to that point.
 */
export function readMessage(raw: Buffer): Promise<MessageParts> {
  const parts: MessageParts = {
    headers: new Map(),
    from: null,
    subject: null,
    text: '',
    deliveryStatus: null,
    feedbackReport: null,
    original: null,
  };
  return new Promise((resolve) => {
    const parser = new MailParser(PARSER_OPTIONS);
    const done = (): void => resolve(parts);
    parser.on('headers', (headers) => {
      parts.headers = headers;
      parts.from = parser.from?.value[0]?.address ?? null;
      parts.subject = typeof parser.subject === 'string' ? parser.subject : null;
    });
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') parts.text = bodyText(data);
      else readPart(data, parts);
    });
    parser.on('end', done);
    parser.on('error', done);
    parser.end(raw);
  });
}

/** A header that mailparser keeps as text: its first value, or null. */
export function headerText(headers: Headers, name: string): string | null {
  const value = headers.get(name);
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : null;
}

// An HTML-only bounce: the linear conversion is enough to find wording and status codes, without
// the milliseconds of mailparser's full one.
function bodyText(message: MessageText): string {
  if (message.text) return message.text.slice(0, TEXT_LIMIT);
  return plainTextOf((message.html ?? '').slice(0, TEXT_LIMIT));
}

function readPart(part: AttachmentStream, parts: MessageParts): void {
  // Typed as a string, but mailparser gives false for a part whose Content-Type header is empty.
  const contentType: unknown = part.contentType;
  const slot = typeof contentType === 'string' ? REPORT_SLOTS.get(contentType.toLowerCase()) : undefined;
  const wanted = slot !== undefined && parts[slot] === null;
  const chunks: Buffer[] = [];
  let size = 0;
  const release = (): void => part.release?.();
  part.content.on('data', (chunk: Buffer) => {
    if (wanted && size < PART_LIMIT) {
      chunks.push(chunk);
      size += chunk.length;
    }
  });
  part.content.on('error', release);
  part.content.on('end', () => {
    if (wanted) parts[slot] = Buffer.concat(chunks).subarray(0, PART_LIMIT).toString('utf8');
    release();
  });
}
