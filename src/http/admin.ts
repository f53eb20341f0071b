import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './auth.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the Authorization header carries the configured admin token (constant-time). */
export function isAdminRequest(adminToken: string | null, authorization: string): boolean {
  const token = bearerToken(authorization);
  return !!token && !!adminToken && timingSafeEqual(digest(token), digest(adminToken));
}
