// The placeholders of a WEBHOOK step's header values. Contact data fills them (the public key writes
// it through /v1/track), so each value is encoded for the place it stands in: no value can change how
// the request is framed, or make the HTTP client refuse to send it.
//
// - Header values: the text as written is an RFC 9110 field-value of visible ASCII (checked when the
//   step is saved); a value is percent-encoded as UTF-8, every byte outside visible ASCII and `%`
//   itself, so `李雷` arrives as `%E6%9D%8E%E9%9B%B7` and `50% off` as `50%25%20off`, which a
//   receiver turns back with decodeURIComponent.
import type { FieldError } from '../errors.js';
import { plainParts, type Scope } from '../templates/render.js';
import { WebhookError } from './request.js';

const HEX = '0123456789ABCDEF';

/** UTF-8 percent-encoding of every byte `keep` refuses; a lone surrogate becomes U+FFFD's bytes, never an exception. */
function percentEncode(text: string, keep: (byte: number) => boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += keep(byte) ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  return out;
}

const visibleNotPercent = (b: number) => b >= 0x21 && b <= 0x7e && b !== 0x25;

// ---- header values

/** RFC 9110 field-value, limited to US-ASCII as new fields should be: visible characters, spaces and tabs only between them. */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;
const OWS = /^[\t ]+|[\t ]+$/g;

/**
 * Headers the HTTP layer or Postmill writes: the framing and the connection (a step's own value
 * would contradict what is sent), the host (the URL names it) and the signature and delivery id.
 */
const MANAGED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'x-postmill-signature',
  'x-postmill-delivery',
]);

/** Why a header of a step cannot be saved as written; null when it can. */
function headerProblem(name: string, value: string): string | null {
  if (MANAGED_HEADERS.has(name.toLowerCase())) return `${name} is written by the HTTP client or by Postmill; a step cannot set it`;
  if (!FIELD_VALUE.test(value)) {
    return 'Header values are visible ASCII characters, with spaces or tabs only between them (RFC 9110 field-value); put other text in a placeholder, whose value is percent-encoded';
  }
  return null;
}

/** The header value with its placeholders filled, each value percent-encoded; surrounding whitespace (an empty value's) is dropped, as receivers do. */
export function fillHeaderValue(name: string, template: string, scope: Scope): string {
  const { literals, values } = plainParts(template, scope);
  let value = literals[0]!;
  values.forEach((text, i) => (value += percentEncode(text, visibleNotPercent) + literals[i + 1]!));
  value = value.replace(OWS, '');
  // only a step saved before header values were checked can get here
  if (!FIELD_VALUE.test(value)) throw new WebhookError(`the header ${name} holds characters a header cannot carry (its text must be visible ASCII; edit the step)`, false);
  return value;
}

// ---- the step's config, when it is saved

/** Field errors of a WEBHOOK step's headers (their shape already checked by the schema). */
export function webhookConfigErrors(config: { url: string; headers?: Record<string, string> }): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    const problem = headerProblem(name, value);
    if (problem) errors.push({ field: `config.headers.${name}`, message: problem, code: 'invalid_string', received: value });
  }
  return errors;
}
