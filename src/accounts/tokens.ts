import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A secret for a cookie, a link or a form: 32 random bytes, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the store keeps of a token: its SHA-256, so a copy of the store opens no session and no link. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Compares two secrets in constant time (by their digests, so lengths leak nothing either). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
