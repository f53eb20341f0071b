// The rules of POST /v1/send that JSON Schema cannot express, reported in the same field-error shape.
import { validationFailed, type FieldError } from '../errors.js';
import { MB } from '../http/json-body.js';
import { reservedHeader, type ComposeAttachment } from '../compose/mime.js';
import { countPlaceholders } from '../render/render.js';
import { HREF } from '../tracking/rewrite.js';
import type { SendRequest } from './request.js';

/** The spec's default limit on the decoded size of all attachments together. */
export const MAX_ATTACHMENT_BYTES = 10 * MB;

// Standard base64; encoders that wrap lines are accepted, as is missing padding.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const LINE_BREAKS = /\r?\n/g;

function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(LINE_BREAKS, '');
  if (!BASE64.test(compact)) return null;
  const padded = compact.endsWith('=');
  if (padded ? compact.length % 4 !== 0 : compact.length % 4 === 1) return null;
  return Buffer.from(compact, 'base64');
}

// RFC 5322 field names: printable ASCII without the colon.
const HEADER_NAME = /^[!-9;-~]{1,100}$/;

// RFC 5322 msg-id: `<left@right>` in printable ASCII without spaces, angle brackets or a second @.
const MSG_ID = String.raw`<[!-;=?-~]+@[!-;=?-~]+>`;
const MESSAGE_ID = new RegExp(`^${MSG_ID}$`);
const MESSAGE_ID_LIST = new RegExp(`^${MSG_ID}(?:[ \t]+${MSG_ID})*$`);
/** Headers whose values are message identifiers: a malformed one would break threading. */
const ID_HEADERS: Record<string, RegExp> = { 'message-id': MESSAGE_ID, 'in-reply-to': MESSAGE_ID_LIST, references: MESSAGE_ID_LIST };

function headerError(name: string, value: string): FieldError | null {
  const field = `headers.${name}`;
  if (!HEADER_NAME.test(name)) {
    return { field, message: 'Header names are 1 to 100 printable ASCII characters without a colon', code: 'invalid_string', received: name };
  }
  const reserved = reservedHeader(name);
  if (reserved) return { field, message: reserved, code: 'reserved_header', received: name };
  const idSyntax = ID_HEADERS[name.toLowerCase()];
  if (idSyntax && !idSyntax.test(value.trim())) {
    return { field, message: `${name} must be message ids such as <id@example.com>, in ASCII`, code: 'invalid_string', received: value };
  }
  return null;
}

/**
 * What a body may hold beyond its size. Composing costs memory per placeholder (compiled pieces,
 * values) and per link (its click URL, where clicks are tracked, is ten times the href): a 40 MB
 * body of four million placeholders or a million links needed more than the heavy thread's heap.
 * Counts, not bytes, bound those costs; real mail stays far below them.
 */
export const MAX_PLACEHOLDERS = 10_000;
export const MAX_LINKS = 10_000;

function countLinks(html: string, upTo: number): number {
  let count = 0;
  for (const _ of html.matchAll(HREF)) if (++count >= upTo) break;
  return count;
}

function bodyErrors(request: SendRequest): FieldError[] {
  const errors: FieldError[] = [];
  const placeholders = countPlaceholders(request.subject ?? '', MAX_PLACEHOLDERS + 1) + countPlaceholders(request.body ?? '', MAX_PLACEHOLDERS + 1);
  if (placeholders > MAX_PLACEHOLDERS) {
    errors.push({ field: 'body', message: `At most ${MAX_PLACEHOLDERS} placeholders ({{...}}) per message`, code: 'too_big', received: `more than ${MAX_PLACEHOLDERS}` });
  }
  if (countLinks(request.body ?? '', MAX_LINKS + 1) > MAX_LINKS) {
    errors.push({ field: 'body', message: `At most ${MAX_LINKS} links per message`, code: 'too_big', received: `more than ${MAX_LINKS}` });
  }
  return errors;
}

/** A multipart type would make the attachment's bytes MIME structure of the message. */
const isMultipart = (contentType: string) => /^\s*multipart\//i.test(contentType);

/**
 * Checks what the schema cannot (base64, decoded sizes, headers we own) and answers the
 * attachments decoded, ready for the composer. Throws 422 VALIDATION_ERROR.
 */
export function checkSendRules(request: SendRequest): ComposeAttachment[] {
  const errors = [...bodyErrors(request), ...Object.entries(request.headers ?? {}).flatMap(([name, value]) => headerError(name, value) ?? [])];
  const attachments: ComposeAttachment[] = [];
  let total = 0;
  (request.attachments ?? []).forEach((a, i) => {
    if (isMultipart(a.contentType)) {
      errors.push({ field: `attachments.${i}.contentType`, message: 'An attachment cannot be multipart: send each file as an attachment of its own', code: 'invalid_string', received: a.contentType });
      return;
    }
    const content = decodeBase64(a.content);
    if (!content) {
      errors.push({ field: `attachments.${i}.content`, message: 'Expected base64 content', code: 'invalid_string', received: `${a.content.length} characters` });
      return;
    }
    total += content.length;
    attachments.push({
      filename: a.filename,
      content,
      contentType: a.contentType,
      contentId: a.contentId ?? null,
      disposition: a.disposition ?? 'attachment',
    });
  });
  if (total > MAX_ATTACHMENT_BYTES) {
    errors.push({
      field: 'attachments',
      message: `Attachments are at most ${MAX_ATTACHMENT_BYTES / MB} MB together once decoded`,
      code: 'too_big',
      received: `${total} bytes`,
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return attachments;
}
