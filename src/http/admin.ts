import { createHash, timingSafeEqual } from 'node:crypto';

export function bearerToken(header: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the Authorization header carries the configured admin token (constant-time). */
export function isAdminRequest(adminToken: string | null, authorization: string): boolean {
  const token = bearerToken(authorization);
  return !!token && !!adminToken && timingSafeEqual(digest(token), digest(adminToken));
}
