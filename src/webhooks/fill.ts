// The placeholders of a WEBHOOK step's URL and header values. Contact data fills them (the public
// key writes it through /v1/track), so each value is encoded for the place it stands in: no value can
// change the host a request goes to, the path it names, or how the request is framed.
//
// - URL: placeholders stand in the path, the query or the fragment, never in the authority (host,
//   port, credentials), which the step's save refuses. A value is percent-encoded as UTF-8, every
//   byte but RFC 3986's unreserved characters (A-Z a-z 0-9 - . _ ~), so `/ \ ? # @ % :` stay data.
//   A path segment that values turn into `.` or `..` fails the step: URL parsers (WHATWG's too)
//   resolve `%2e%2e` as `..`, so no encoding could keep such a segment in place.
// - Header values: the text as written is an RFC 9110 field-value of visible ASCII (checked when the
//   step is saved); a value is percent-encoded as UTF-8, every byte outside visible ASCII and `%`
//   itself, so `李雷` arrives as `%E6%9D%8E%E9%9B%B7` and `50% off` as `50%25%20off`, which a
//   receiver turns back with decodeURIComponent.
import type { FieldError } from '../errors.js';
import { plainParts, type Scope } from '../render/render.js';
import { WebhookError } from './request.js';

const HEX = '0123456789ABCDEF';

/** UTF-8 percent-encoding of every byte `keep` refuses; a lone surrogate becomes U+FFFD's bytes, never an exception. */
function percentEncode(text: string, keep: (byte: number) => boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += keep(byte) ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  return out;
}

const unreserved = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e;
const visibleNotPercent = (b: number) => b >= 0x21 && b <= 0x7e && b !== 0x25;

// ---- header values

/** RFC 9110 field-value, limited to US-ASCII as new fields should be: visible characters, spaces and tabs only between them. */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

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
  value = value.trim();
  // only a step saved before header values were checked can get here
  if (!FIELD_VALUE.test(value)) throw new WebhookError(`the header ${name} holds characters a header cannot carry (its text must be visible ASCII; edit the step)`, false);
  return value;
}

// ---- URLs

/** An http(s) URL's scheme and authority, up to the character that ends the authority (WHATWG: any run of / or \ after the scheme, then up to / \ ? #). */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:[/\\]*(?![/\\])[^/\\?#]*(?=[/\\?#])/i;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
const AUTHORITY_PLACEHOLDER = 'The host, port and credentials of a webhook URL cannot hold placeholders; put them in the path, the query or the fragment';

/** The step's URL with every placeholder filled alike; throws as fillUrl does. */
function sampleUrl(template: string): URL {
  const { literals } = plainParts(template, {});
  // any value will do: what is checked is where the placeholders stand and that the rest is a URL
  return buildUrl(literals, literals.slice(1).map(() => 'x'));
}

/** Why a step's URL cannot be saved as written; null when it can. */
function urlProblem(template: string): string | null {
  try {
    sampleUrl(template);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The host a step's URL names, as every request of the step will (placeholders never stand in it); null when the URL cannot be saved. */
export function urlHost(template: string): string | null {
  try {
    return sampleUrl(template).hostname;
  } catch {
    // urlProblem says why, when the step is saved
    return null;
  }
}

/**
 * The URL with its placeholders filled, each value percent-encoded. Fails the step (a WebhookError
 * no retry mends) when the authority holds a placeholder, a value would make a path segment `.` or
 * `..`, or the filled text is not a URL.
 */
export function fillUrl(template: string, scope: Scope): URL {
  const { literals, values } = plainParts(template, scope);
  return buildUrl(literals, values);
}

/** Tabs and line breaks anywhere, and controls and spaces at either end, are what a URL parser drops before reading (WHATWG). */
const DROPPED_INSIDE = /[\t\n\r]/g;

function trimControls(text: string, start: boolean, end: boolean): string {
  let from = 0;
  let to = text.length;
  while (start && from < to && text.charCodeAt(from) <= 0x20) from++;
  while (end && to > from && text.charCodeAt(to - 1) <= 0x20) to--;
  return text.slice(from, to);
}

function buildUrl(written: readonly string[], values: readonly string[]): URL {
  // read the literals as the parser will, so a segment is judged as it will be resolved
  const literals = written.map((text, i) => trimControls(text.replace(DROPPED_INSIDE, ''), i === 0, i === written.length - 1));
  const authority = AUTHORITY.exec(literals[0]!)?.[0];
  if (values.length > 0 && authority === undefined) throw new WebhookError(AUTHORITY_PLACEHOLDER, false);
  let text = authority ?? '';
  let part: 'path' | 'query' | 'fragment' = 'path';
  let segment = '';
  let filled = false;
  const endSegment = () => {
    if (filled && DOT_SEGMENT.test(segment)) throw new WebhookError(`a placeholder's value makes the path segment "${segment}", which would move the request to another path`, false);
    segment = '';
    filled = false;
  };
  const literal = (piece: string) => {
    for (const char of piece) {
      if (part === 'path' && (char === '/' || char === '\\' || char === '?' || char === '#')) endSegment();
      if (char === '#') part = 'fragment';
      else if (char === '?' && part === 'path') part = 'query';
      else if (part === 'path' && char !== '/' && char !== '\\') segment += char;
    }
    text += piece;
  };
  literal(literals[0]!.slice(text.length));
  values.forEach((value, i) => {
    const encoded = percentEncode(value, unreserved);
    if (part === 'path') {
      segment += encoded;
      filled = true;
    }
    text += encoded;
    literal(literals[i + 1]!);
  });
  if (part === 'path') endSegment();
  try {
    return new URL(text);
  } catch {
    // the parser's message adds nothing: ours shows the URL as filled
    throw new WebhookError(`the URL is not valid once its placeholders are filled: ${text.slice(0, 300)}`, false);
  }
}

// ---- the step's config, when it is saved

/** Field errors of a WEBHOOK step's URL and headers (their shape already checked by the schema). */
export function webhookConfigErrors(config: { url: string; headers?: Record<string, string> }): FieldError[] {
  const errors: FieldError[] = [];
  const url = urlProblem(config.url);
  if (url) errors.push({ field: 'config.url', message: url, code: 'invalid_string', received: config.url });
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    const problem = headerProblem(name, value);
    if (problem) errors.push({ field: `config.headers.${name}`, message: problem, code: 'invalid_string', received: value });
  }
  return errors;
}
