// DKIM signing (RFC 6376, relaxed/relaxed) of a finished message with rsa-sha256 and, where the
// domain has one, ed25519-sha256 beside it (RFC 8463), synchronous and buffer in, buffer out: it
// runs on the mail threads, once per message.
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { memoized } from '../../memo.js';
import { hashRelaxedBody, relaxedHeader } from './canonical.js';

/** A domain's DKIM keys as signing takes them: one signature per key, in this order. */
export interface DkimSigning {
  domainName: string;
  /** `privateKey`: PKCS#8 PEM; its type (RSA or Ed25519) makes the signature's `a=`. */
  keys: { keySelector: string; privateKey: string }[];
}

/**
 * Shown to the reader or used to answer: listed in `h=` once more than present, so that a copy
 * (or a first one) added on the way breaks the signature (RFC 6376 8.15). The two list headers
 * must be covered for one-click unsubscribe (RFC 8058 4).
 */
const OVERSIGNED_HEADERS = [
  'from',
  'sender',
  'reply-to',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'in-reply-to',
  'references',
  'list-unsubscribe',
  'list-unsubscribe-post',
];

/** Added or rewritten on the way, or signatures themselves: never signed. Every other header is. */
const UNSIGNED_HEADERS = new Set(['return-path', 'received', 'dkim-signature', 'authentication-results', 'arc-seal', 'arc-message-signature', 'arc-authentication-results']);

/** A field name that can stand in `h=` (a DKIM tag value has no `;`; a field name no `:`). */
const LISTABLE_NAME = /^[!-9<-~]+$/;

interface HeaderField {
  /** Lower-cased name. */
  key: string;
  /** The whole field as written, folding included, without its final line break. */
  line: string;
}

/** Parsing a PEM key costs twice the RSA signature itself: each domain's key is parsed once per thread. */
const keyObject = memoized(1000, (pem: string): KeyObject => createPrivateKey(pem));

function parseHeader(block: string): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const line of block.split('\r\n')) {
    const last = fields[fields.length - 1];
    if (last && (line.startsWith(' ') || line.startsWith('\t'))) last.line += `\r\n${line}`;
    else if (line !== '') fields.push({ key: line.slice(0, Math.max(line.indexOf(':'), 0)).trim().toLowerCase(), line });
  }
  return fields;
}

/** The `h=` list: every signable field as often as it occurs, the over-signed ones once more. */
function signedHeaderNames(fields: HeaderField[]): string[] {
  const counts = new Map<string, number>();
  for (const { key } of fields) {
    if (key !== '' && LISTABLE_NAME.test(key) && !UNSIGNED_HEADERS.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const key of OVERSIGNED_HEADERS) counts.set(key, (counts.get(key) ?? 0) + 1);
  const names: string[] = [];
  for (const [key, n] of counts) for (let i = 0; i < n; i++) names.push(key);
  return names;
}

/**
 * The canonical header fields in `h=` order: each name takes its next instance from the bottom;
 * a name listed more often than present contributes nothing (RFC 6376 5.4.2).
 */
function canonicalFields(fields: HeaderField[], names: string[]): string {
  const used = new Map<string, number>();
  let out = '';
  for (const name of names) {
    const skip = used.get(name) ?? 0;
    used.set(name, skip + 1);
    let seen = 0;
    for (let i = fields.length - 1; i >= 0; i--) {
      if (fields[i]!.key !== name || seen++ < skip) continue;
      out += `${relaxedHeader(fields[i]!.line)}\r\n`;
      break;
    }
  }
  return out;
}

/** `tags` joined as `a=1; b=2`, folded before a tag or after a `:` of a list once a line passes 76 characters. */
function foldTags(prefix: string, tags: string[]): string {
  let out = prefix;
  let lineLength = prefix.length;
  const add = (piece: string) => {
    if (lineLength + piece.length > 76 && lineLength > 1) {
      const trimmed = piece.trimStart();
      out += `\r\n ${trimmed}`;
      lineLength = 1 + trimmed.length;
    } else {
      out += piece;
      lineLength += piece.length;
    }
  };
  tags.forEach((tag, i) => {
    const parts = tag.split(':');
    parts.forEach((part, j) => add(`${j === 0 && i > 0 ? ' ' : ''}${part}${j < parts.length - 1 ? ':' : i < tags.length - 1 ? ';' : ''}`));
  });
  return out;
}

/** Whether a line ends otherwise than with CRLF. */
function hasBareLineEnd(raw: Buffer): boolean {
  for (let lf = raw.indexOf(0x0a); lf >= 0; lf = raw.indexOf(0x0a, lf + 1)) if (lf === 0 || raw[lf - 1] !== 0x0d) return true;
  for (let cr = raw.indexOf(0x0d); cr >= 0; cr = raw.indexOf(0x0d, cr + 1)) if (raw[cr + 1] !== 0x0a) return true;
  return false;
}

/** A message as signed: its DKIM-Signature header field (CRLF-terminated) and the message it goes in front of. */
export interface SignedParts {
  header: Buffer;
  /** The message with CRLF line ends only: the very bytes the signature covers. */
  message: Buffer;
}

const isEd25519 = (key: KeyObject) => key.asymmetricKeyType === 'ed25519';

/** Ed25519 signs the SHA-256 hash of the canonical header (RFC 8463 3: PureEdDSA over the hash), RSA the header itself with SHA-256. */
const signatureOf = (key: KeyObject, data: Buffer): Buffer =>
  isEd25519(key) ? sign(null, createHash('sha256').update(data).digest(), key) : sign('sha256', data, key);

/**
 * The DKIM-Signature header fields of a message (one per key), apart from it: a 40 MB message is
 * never copied to put 1 KB in front of it (the two are written one after the other). Both own
 * their memory, so a thread can transfer them rather than copy them.
 */
export function signParts(stored: Buffer, signing: DkimSigning, now: number): SignedParts {
  // signed as SMTP will send it: CRLF only
  const raw = hasBareLineEnd(stored) ? Buffer.from(stored.toString('latin1').replace(/\r\n|\r|\n/g, '\r\n'), 'latin1') : stored;
  const split = raw.indexOf('\r\n\r\n');
  const fields = parseHeader(raw.toString('latin1', 0, split < 0 ? raw.length : split));
  const bodyHash = createHash('sha256');
  if (split >= 0) hashRelaxedBody(bodyHash, raw.subarray(split + 4));
  const bh = bodyHash.digest('base64');
  const names = signedHeaderNames(fields);
  const canonical = canonicalFields(fields, names);
  let header = '';
  for (const { keySelector, privateKey } of signing.keys) {
    const key = keyObject(privateKey);
    const unsigned = foldTags('DKIM-Signature: ', [
      'v=1',
      `a=${isEd25519(key) ? 'ed25519-sha256' : 'rsa-sha256'}`,
      'c=relaxed/relaxed',
      `d=${signing.domainName}`,
      `s=${keySelector}`,
      `t=${Math.floor(now / 1000)}`,
      `bh=${bh}`,
      `h=${names.join(':')}`,
      'b=',
    ]);
    const signature = signatureOf(key, Buffer.from(canonical + relaxedHeader(unsigned), 'latin1')).toString('base64');
    // b= starts on a line of its own, folded at 72: its value is removed before verifying, spaces and all
    header += `${unsigned}${signature.replace(/.{1,72}/g, '\r\n $&')}\r\n`;
  }
  return { header: Buffer.from(header, 'latin1'), message: raw };
}
