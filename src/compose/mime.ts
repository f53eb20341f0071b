// The MIME message of one email, composed once when the send is accepted (DKIM is added at delivery).
import MailComposer, { type MailComposerOptions } from 'nodemailer/lib/mail-composer';
import type { MimeNodeHeader } from 'nodemailer/lib/mime-node';
import { composeAlternative, type Bodies, type RootFields } from './mime/alternative.js';
import { toCrlf } from './mime/crlf.js';
import { serializeMime } from './mime/serialize.js';
import { htmlToText } from './text/html-to-text.js';

export interface Mailbox {
  email: string;
  name: string | null;
}

export interface ComposeAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  contentId: string | null;
  disposition: 'attachment' | 'inline';
}

export interface ComposeInput {
  emailId: string;
  /** Our host name: the domain of the Message-ID. */
  hostname: string;
  date: Date;
  from: Mailbox;
  to: Mailbox;
  replyTo: string | null;
  subject: string;
  html: string;
  /** The text/plain alternative; derived from `html` when not given. */
  text?: string;
  attachments: ComposeAttachment[];
  /** The caller's headers: they replace ours of the same name, whatever the case. */
  headers: Record<string, string>;
  /** Marketing, campaign and workflow mail: RFC 8058 one-click unsubscribe and its mailto fallback. */
  unsubscribe: { url: string; mailto: string } | null;
  /** Campaign mail names its campaign, so bounces, complaints and feedback loops can be traced to it. */
  campaign?: { id: string; projectId: string } | null;
}

export interface ComposedMessage {
  raw: Buffer;
  /** As written in the message, angle brackets included. */
  messageId: string;
}

export const EMAIL_ID_HEADER = 'X-Postmill-Email-Id';
export const CAMPAIGN_ID_HEADER = 'X-Postmill-Campaign-Id';

/** Headers the send itself writes: the addresses and subject come from their own fields, the rest from the composer and the MTA. */
const OWN_HEADERS = new Set(['from', 'sender', 'to', 'cc', 'bcc', 'subject', 'date', 'mime-version', 'return-path', 'dkim-signature']);
/** Trace and receipt headers: written by the servers a message passes and by readers' clients, never by a sender. */
const TRACE_HEADERS = new Set([
  'received',
  'received-spf',
  'authentication-results',
  'delivered-to',
  'x-original-to',
  'return-receipt-to',
  'disposition-notification-to',
  'disposition-notification-options',
  'original-recipient',
]);
/** Prefixes of the same classes: MIME structure (Content-Language aside), resent and ARC trace blocks, our own headers. */
const RESERVED_PREFIXES = ['content-', 'resent-', 'arc-', 'x-postmill-'];

/**
 * Why a caller may not set this header, or null when it may: the send writes the addresses,
 * subject and MIME structure itself, trace and receipt headers belong to servers and clients, and
 * `X-Postmill-*` ties replies and bounces to the record.
 */
export function reservedHeader(name: string): string | null {
  const lower = name.toLowerCase();
  if (OWN_HEADERS.has(lower)) return `${name} is set by the send itself and cannot be a custom header`;
  if (TRACE_HEADERS.has(lower) || lower.startsWith('resent-') || lower.startsWith('arc-')) {
    return `${name} is a trace or receipt header, written by mail servers and clients, not by a sender`;
  }
  if (lower.startsWith('content-') && lower !== 'content-language') return `${name} is part of the MIME structure the send builds`;
  if (RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix))) return `${name} is reserved for Postmill`;
  return null;
}

/** The root's fields and headers of this email (everything but the bodies and attachments). */
function rootFields(input: ComposeInput): RootFields {
  const caller = new Map<string, { key: string; value: string }>();
  for (const [key, value] of Object.entries(input.headers)) {
    if (reservedHeader(key) === null) caller.set(key.toLowerCase(), { key, value });
  }
  const ours: MimeNodeHeader[] = [{ key: EMAIL_ID_HEADER, value: input.emailId }];
  if (input.campaign) {
    // Feedback-ID: Gmail's feedback loop reports complaints per campaign (its last field names the sender).
    ours.push({ key: CAMPAIGN_ID_HEADER, value: input.campaign.id }, { key: 'Feedback-ID', value: `${input.campaign.id}:${input.campaign.projectId}:postmill` });
  }
  if (input.unsubscribe) {
    ours.push(
      { key: 'List-Unsubscribe', value: `<${input.unsubscribe.url}>, <mailto:${input.unsubscribe.mailto}>` },
      { key: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
      { key: 'Precedence', value: 'bulk' },
    );
  }
  // Message-ID and Reply-To are composer fields that would replace a header of the same name.
  const messageId = caller.get('message-id')?.value ?? `<${input.emailId}@${input.hostname}>`;
  const replyTo = caller.get('reply-to')?.value ?? input.replyTo;
  caller.delete('message-id');
  caller.delete('reply-to');
  return {
    from: { name: input.from.name ?? '', address: input.from.email },
    to: { name: input.to.name ?? '', address: input.to.email },
    ...(replyTo ? { replyTo } : {}),
    subject: input.subject,
    messageId,
    date: input.date,
    headers: [...ours.filter((h) => !caller.has(h.key.toLowerCase())), ...caller.values()],
  };
}

/** The HTML body and its text alternative, line breaks as written (the template preview shows exactly these). */
export const bodiesOf = (input: Pick<ComposeInput, 'html' | 'text'>): Bodies => ({ html: input.html, text: input.text ?? htmlToText(toCrlf(input.html)) });

/** What MailComposer is given for this email; exported so tests can build the same tree. */
export function composerOptions(input: ComposeInput): MailComposerOptions {
  const { html, text } = bodiesOf(input);
  return {
    ...rootFields(input),
    html: toCrlf(html),
    text: toCrlf(text),
    attachments: input.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      contentDisposition: a.disposition,
      // base64 for every part, message/* included: caller bytes never become MIME structure
      contentTransferEncoding: 'base64',
      ...(a.contentId ? { cid: a.contentId } : {}),
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function composeMessage(input: ComposeInput): ComposedMessage {
  // the email id is unique: a boundary made of it needs no random bytes
  if (input.attachments.length === 0) return composeAlternative(rootFields(input), bodiesOf(input), input.emailId.replace(/-/g, ''));
  const root = new MailComposer(composerOptions(input)).compile();
  const raw = serializeMime(root);
  return { raw, messageId: root.encodeHeaderValue('Message-ID', root.getHeader('Message-ID')) };
}
