// A message submitted over SMTP, turned into the request /v1/send takes: the same schema, rules and
// pipeline judge it.
import type { AddressObject, ParsedMail } from 'mailparser';
import type { AddressInput, AttachmentInput, SendRequest } from '../send/request.js';
import { escapeHtml } from '../render/render.js';

/** Headers of the submitted message carried over as custom headers; the send writes every other one itself. */
const CARRIED = /^(x-.+|message-id|in-reply-to|references|list-unsubscribe|list-unsubscribe-post|list-id|precedence|auto-submitted|feedback-id)$/i;
/** Ours: a caller may not set it (the send refuses it too). */
const OWN = /^x-postmill-/i;

const addressesOf = (field: AddressObject | AddressObject[] | undefined) => (Array.isArray(field) ? field : field ? [field] : []).flatMap((f) => f.value);

/** The header's text as written, unfolded. */
const headerText = (line: string) =>
  line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();

function carriedHeaders(parsed: ParsedMail): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    if (!CARRIED.test(key) || OWN.test(key)) continue;
    const name = line.slice(0, line.indexOf(':')).trim();
    headers[name] = headerText(line);
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** HTML as written, or the text part shown as it was typed. */
function bodyOf(parsed: ParsedMail): string | undefined {
  if (typeof parsed.html === 'string' && parsed.html.trim() !== '') return parsed.html;
  if (parsed.text && parsed.text.trim() !== '') return `<pre style="white-space: pre-wrap; font-family: inherit">${escapeHtml(parsed.text)}</pre>`;
  return undefined;
}

function attachmentsOf(parsed: ParsedMail): AttachmentInput[] | undefined {
  if (parsed.attachments.length === 0) return undefined;
  return parsed.attachments.map((a, i) => ({
    filename: a.filename ?? `attachment-${i + 1}`,
    content: a.content.toString('base64'),
    contentType: a.contentType,
    ...(a.cid ? { contentId: a.cid } : {}),
    disposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
  }));
}

/**
 * The /v1/send request of a submitted message: recipients from the envelope (RCPT TO, Bcc
 * included, with display names from To and Cc), sender, subject, body, Reply-To, attachments and
 * the headers a caller may set (Message-ID among them, so replies thread with what the sender keeps).
 */
export function sendRequestOf(parsed: ParsedMail, envelopeRecipients: string[]): SendRequest {
  const named = new Map([...addressesOf(parsed.to), ...addressesOf(parsed.cc)].map((a) => [a.address?.toLowerCase(), a.name]));
  const to: AddressInput[] = envelopeRecipients.map((email) => {
    const name = named.get(email.toLowerCase());
    return name ? { name, email } : email;
  });
  const sender = addressesOf(parsed.from)[0];
  const replyTo = addressesOf(parsed.replyTo)[0]?.address;
  const request: SendRequest = { to };
  if (sender?.address) request.from = sender.name ? { name: sender.name, email: sender.address } : sender.address;
  if (parsed.subject !== undefined) request.subject = parsed.subject;
  const body = bodyOf(parsed);
  if (body !== undefined) request.body = body;
  if (replyTo) request.reply = replyTo;
  const headers = carriedHeaders(parsed);
  if (headers) request.headers = headers;
  const attachments = attachmentsOf(parsed);
  if (attachments) request.attachments = attachments;
  return request;
}
