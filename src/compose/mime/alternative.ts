// The common shape of a message, composed without building a MIME tree: an HTML part beside its
// text part and no attachments (every campaign message, most sends). The root's headers come from
// nodemailer's own MimeNode (address, encoded-word and date formatting; see RootNode in
// src/nodemailer-internals.ts); the two parts are written here by our encoders. A campaign
// composes tens of thousands of these.
import type { MailComposerOptions } from 'nodemailer/lib/mail-composer';
import { toCrlf } from './crlf.js';
import { base64Lines } from './large-body.js';
import { quotedPrintable } from './quoted-printable.js';
import { RootNode } from '../../nodemailer-internals.js';

const CRLF = '\r\n';
/** The root headers MailComposer sets from its fields (after the custom ones, replacing them). */
const FIELD_HEADERS = [
  ['from', 'from'],
  ['to', 'to'],
  ['reply-to', 'replyTo'],
  ['subject', 'subject'],
  ['message-id', 'messageId'],
  ['date', 'date'],
] as const;

/** The root's fields: everything MailComposer would be given but the bodies and attachments. */
export type RootFields = Pick<MailComposerOptions, 'from' | 'to' | 'replyTo' | 'subject' | 'messageId' | 'date' | 'headers'>;

/** The two bodies; their line breaks, whatever they are, are written CRLF. */
export interface Bodies {
  html: string;
  text: string;
}

/**
 * Quoted-printable writes a byte above 127 as three: text with more than one such byte in six
 * (Cyrillic, Greek, CJK) is smaller in base64, as nodemailer would choose too.
 */
function transferOf(text: string): { encoding: string; body: Buffer } {
  // ASCII alone (as many UTF-8 bytes as characters) has no such byte: no need to count them
  if (Buffer.byteLength(text, 'utf8') === text.length) return { encoding: 'quoted-printable', body: quotedPrintable(text) };
  const bytes = Buffer.from(toCrlf(text), 'utf8');
  let high = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 127) high++;
  return high * 6 > bytes.length ? { encoding: 'base64', body: base64Lines(bytes) } : { encoding: 'quoted-printable', body: quotedPrintable(text) };
}

function part(boundary: string, type: string, text: string): Buffer[] {
  const { encoding, body } = transferOf(text);
  return [
    Buffer.from(`--${boundary}${CRLF}Content-Type: ${type}; charset=utf-8${CRLF}Content-Transfer-Encoding: ${encoding}${CRLF}${CRLF}`, 'latin1'),
    body,
    Buffer.from(CRLF, 'latin1'),
  ];
}

/** The message of these fields and bodies (no attachments), and its Message-ID as written. */
export function composeAlternative(options: RootFields, bodies: Bodies, boundaryBase: string): { raw: Buffer; messageId: string } {
  const root = new RootNode('multipart/alternative', { baseBoundary: boundaryBase, disableFileAccess: true, disableUrlAccess: true });
  if (options.headers) root.addHeader(options.headers as never);
  for (const [header, field] of FIELD_HEADERS) {
    const value = options[field];
    if (value) root.setHeader(header, value as never);
  }
  const head = root.buildHeaders();
  const boundary = String(root.boundary);
  const raw = Buffer.concat([
    Buffer.from(head + CRLF + CRLF, 'utf8'),
    ...part(boundary, 'text/plain', bodies.text),
    ...part(boundary, 'text/html', bodies.html),
    Buffer.from(`--${boundary}--${CRLF}`, 'latin1'),
  ]);
  return { raw, messageId: root.encodeHeaderValue('Message-ID', root.getHeader('Message-ID')) };
}
