// The rules of POST /v1/send that JSON Schema cannot express, reported in the same field-error shape.
import { validationFailed, type FieldError } from '../errors.js';
import { MB } from '../http/json-body.js';
import { PROTECTED_HEADERS, type ComposeAttachment } from '../mail/compose.js';
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

function headerError(name: string): FieldError | null {
  if (!HEADER_NAME.test(name)) {
    return { field: `headers.${name}`, message: 'Header names are 1 to 100 printable ASCII characters without a colon', code: 'invalid_string', received: name };
  }
  if (PROTECTED_HEADERS.has(name.toLowerCase())) {
    return { field: `headers.${name}`, message: `${name} is set by the send itself and cannot be a custom header`, code: 'reserved_header', received: name };
  }
  return null;
}

/**
 * Checks what the schema cannot (base64, decoded sizes, headers we own) and answers the
 * attachments decoded, ready for the composer. Throws 422 VALIDATION_ERROR.
 */
export function checkSendRules(request: SendRequest): ComposeAttachment[] {
  const errors = Object.keys(request.headers ?? {}).flatMap((name) => headerError(name) ?? []);
  const attachments: ComposeAttachment[] = [];
  let total = 0;
  (request.attachments ?? []).forEach((a, i) => {
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
