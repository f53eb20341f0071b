// What email.received tells of a message itself, read from its MIME on a compose thread (see
// inspect.ts): plain data, so that it crosses to the main thread as it is.
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { escapeHtml } from '../render/render.js';

/** What email.received tells of the message itself; `reason` says why it holds no content when the message could not be read. */
export interface Content {
  fromAddress: string;
  fromName: string | null;
  fromHeader: string;
  to: string | null;
  replyTo: string | null;
  subject: string;
  body: string;
  hasContent: boolean;
  /** The body was longer than MAX_RECEIVED_BODY and is cut there. */
  bodyTruncated?: boolean;
  messageId: string | null;
  date: number | null;
  reason?: string;
}

/**
 * The longest body email.received carries, in UTF-16 units: the event is written on the main
 * thread (a 38 MB body took 370 ms of it), and every page of events and every webhook of the event
 * carries it. Replies and notes are a few KB; the message itself is kept whole with its email.
 */
export const MAX_RECEIVED_BODY = 1024 * 1024;

/** `body` cut at MAX_RECEIVED_BODY, never inside a surrogate pair. */
function bounded(body: string): { body: string; bodyTruncated?: true } {
  if (body.length <= MAX_RECEIVED_BODY) return { body };
  const end = /[\uD800-\uDBFF]/.test(body[MAX_RECEIVED_BODY - 1]!) ? MAX_RECEIVED_BODY - 1 : MAX_RECEIVED_BODY;
  return { body: body.slice(0, end), bodyTruncated: true };
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

function contentOf(parsed: ParsedMail, mailFrom: string): Content {
  const body = typeof parsed.html === 'string' ? parsed.html : parsed.text ? `<pre>${escapeHtml(parsed.text)}</pre>` : '';
  return {
    fromAddress: addresses(parsed.from)[0] ?? mailFrom,
    fromName: parsed.from?.value[0]?.name || null,
    fromHeader: parsed.from?.text ?? '',
    to: addresses(parsed.to)[0] ?? null,
    replyTo: addresses(parsed.replyTo)[0] ?? null,
    subject: (parsed.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 998),
    ...bounded(body),
    hasContent: body.trim() !== '' || (parsed.attachments?.length ?? 0) > 0,
    messageId: parsed.messageId ?? null,
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.getTime() : null,
  };
}

/** A message that cannot be read is still received: what the envelope says, no content, and why. */
export const unreadable = (mailFrom: string, reason: string): Content => ({
  fromAddress: mailFrom,
  fromName: null,
  fromHeader: '',
  to: null,
  replyTo: null,
  subject: '',
  body: '',
  hasContent: false,
  messageId: null,
  date: null,
  reason,
});

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The content of `raw`; a message the parser refuses (too many parts, an oversized header block) is
 * unreadable, with the parser's reason. The body is the HTML part, or the text part when there is
 * none: mailparser's conversions between the two (and the links found for them) are skipped.
 */
export function readContent(raw: Buffer, mailFrom: string): Promise<Content> {
  return simpleParser(raw, { skipImageLinks: true, skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true }).then(
    (parsed) => contentOf(parsed, mailFrom),
    (err: unknown) => unreadable(mailFrom, `The message could not be parsed: ${reasonOf(err)}`),
  );
}
