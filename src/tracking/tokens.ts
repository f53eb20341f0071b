// Signed tokens for the links in mail (unsubscribe, subscribe, manage, open pixel, click redirect):
// base64url of a compact binary payload followed by its HMAC-SHA256, so links are short,
// unforgeable and name no enumerable ids.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Core } from '../core.js';
import type { Db } from '../store/db.js';
import { settingOrCreate } from '../store/settings.js';

export type ContactTokenKind = 'unsubscribe' | 'subscribe' | 'manage';

export type TokenPayload =
  | { kind: ContactTokenKind; projectId: string; contactId: string; emailId?: string }
  | { kind: 'open'; emailId: string }
  | { kind: 'click'; emailId: string; url: string };

const KIND_CODES = { unsubscribe: 1, subscribe: 2, manage: 3, open: 4, click: 5 } as const;
/** The two halves of a click link (see clickToken): the email, and the URL. */
const CLICK_EMAIL = 6;
const CLICK_URL = 7;
const HALVES = '.';
const KINDS = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code as number, kind as TokenPayload['kind']]));

/** RFC 2104 allows truncating the MAC to half the hash; 128 bits keep the links short. */
const MAC_BYTES = 16;
const UUID_BYTES = 16;
/** Longer input is refused before any decoding (click URLs are the only variable part). */
const MAX_TOKEN_CHARS = 8192;
const SECRET_SETTING = 'token.secret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const secrets = new WeakMap<Db, Buffer>();

/** The signing key, generated into the store on first use and cached for the connection. */
export function tokenSecret(db: Db): Buffer {
  let secret = secrets.get(db);
  if (!secret) {
    const stored = settingOrCreate(db, SECRET_SETTING, () => randomBytes(32).toString('hex'));
    secrets.set(db, (secret = Buffer.from(stored, 'hex')));
  }
  return secret;
}

function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new TypeError(`not a UUID: ${id}`);
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

function uuidAt(bytes: Buffer, offset: number): string {
  const hex = bytes.toString('hex', offset, offset + UUID_BYTES);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function encode(payload: TokenPayload): Buffer {
  const kind = Buffer.of(KIND_CODES[payload.kind]);
  switch (payload.kind) {
    case 'open':
      return Buffer.concat([kind, uuidBytes(payload.emailId)]);
    case 'click':
      return Buffer.concat([kind, uuidBytes(payload.emailId), Buffer.from(payload.url, 'utf8')]);
    default: {
      const ids = [uuidBytes(payload.projectId), uuidBytes(payload.contactId)];
      if (payload.emailId !== undefined) ids.push(uuidBytes(payload.emailId));
      return Buffer.concat([kind, ...ids]);
    }
  }
}

function decode(bytes: Buffer): TokenPayload | null {
  const kind = KINDS.get(bytes[0]!);
  const size = bytes.length - 1;
  switch (kind) {
    case undefined:
      return null;
    case 'open':
      return size === UUID_BYTES ? { kind, emailId: uuidAt(bytes, 1) } : null;
    case 'click':
      return size > UUID_BYTES ? { kind, emailId: uuidAt(bytes, 1), url: bytes.toString('utf8', 1 + UUID_BYTES) } : null;
    default:
      if (size === 2 * UUID_BYTES) return { kind, projectId: uuidAt(bytes, 1), contactId: uuidAt(bytes, 17) };
      if (size === 3 * UUID_BYTES) return { kind, projectId: uuidAt(bytes, 1), contactId: uuidAt(bytes, 17), emailId: uuidAt(bytes, 33) };
      return null;
  }
}

const mac = (secret: Buffer, payload: Buffer) => createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES);

/** Signs with the key itself: what threads without a store connection use (see tokenSecret). */
export function signTokenWith(secret: Buffer, payload: TokenPayload): string {
  const bytes = encode(payload);
  return Buffer.concat([bytes, mac(secret, bytes)]).toString('base64url');
}

export const signToken = (ctx: Pick<Core, 'db'>, payload: TokenPayload): string => signTokenWith(tokenSecret(ctx.db), payload);

const signed = (secret: Buffer, bytes: Buffer) => Buffer.concat([bytes, mac(secret, bytes)]).toString('base64url');

/**
 * A click link's token in two signed halves: `<email>.<url>`. The URL half is the same in every
 * email that links there, so a campaign signs each of its URLs once instead of once per recipient
 * and link; the email half is signed once per email. Any pair of genuine halves leads only to a URL
 * this store signed: never an open redirect.
 */
export function clickToken(secret: Buffer, emailHalf: string, url: string, urlHalves?: Map<string, string>): string {
  let urlHalf = urlHalves?.get(url);
  if (urlHalf === undefined) {
    urlHalf = signed(secret, Buffer.concat([Buffer.of(CLICK_URL), Buffer.from(url, 'utf8')]));
    urlHalves?.set(url, urlHalf);
  }
  return `${emailHalf}${HALVES}${urlHalf}`;
}

/** The email half of the click tokens of one email (see clickToken). */
export const clickEmailHalf = (secret: Buffer, emailId: string): string => signed(secret, Buffer.concat([Buffer.of(CLICK_EMAIL), uuidBytes(emailId)]));

/** The signed payload of one token spelling, or null (never throws). */
function verified(secret: Buffer, token: string): Buffer | null {
  if (!BASE64URL.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // The decoder ignores the spare bits of the last character: only the one canonical spelling of a
  // token is accepted, so no two link texts carry the same token.
  if (bytes.length <= MAC_BYTES + 1 || bytes.toString('base64url') !== token) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  return timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(secret, payload)) ? payload : null;
}

/** The payload of a token this store signed, or null for anything else (never throws). */
export function verifyToken(ctx: Pick<Core, 'db'>, token: string): TokenPayload | null {
  if (token.length > MAX_TOKEN_CHARS) return null;
  const secret = tokenSecret(ctx.db);
  const [first, second, extra] = token.split(HALVES);
  if (second === undefined) {
    const payload = verified(secret, first!);
    return payload ? decode(payload) : null;
  }
  if (extra !== undefined) return null;
  const email = verified(secret, first!);
  const url = verified(secret, second);
  if (email?.[0] !== CLICK_EMAIL || email.length !== 1 + UUID_BYTES || url?.[0] !== CLICK_URL || url.length < 2) return null;
  return { kind: 'click', emailId: uuidAt(email, 1), url: url.toString('utf8', 1) };
}
