// The bounds every way into the API shares, HTTP and SMTP submission alike: a project's request
// rate, and turns for heavy requests, so that neither door gets round the other's limits.
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { FairGate } from './fair-gate.js';
import { limitHeaders, RATE_WINDOW_MS } from './rate-limit.js';
import { SlidingWindow } from './sliding-window.js';

export interface Admission {
  clock: Clock;
  /** `rateLimit.perMinute` requests per project; null when that is 0 (no limit). */
  requests: SlidingWindow | null;
  /**
   * Requests over 1 MB: two in the daemon at once (one being read while the other composes), one
   * per project; 32 waiting in all and 8 per project (so one project's pile never turns another
   * away), then 429.
   */
  heavy: FairGate;
}

export const createAdmission = (clock: Clock, perMinute: number): Admission => ({
  clock,
  requests: perMinute === 0 ? null : new SlidingWindow(clock, perMinute, RATE_WINDOW_MS),
  heavy: new FairGate({
    slots: 2,
    maxWaiting: 32,
    maxWaitingPerKey: 8,
    refusal: { message: 'Too many large requests are in progress', suggestion: 'Retry shortly, or send large messages to fewer recipients per request' },
  }),
});

/**
 * Counts one request of the project: answers its RateLimit-* headers (none without a limit), or
 * throws 429 RATE_LIMIT_EXCEEDED with Retry-After when the project is over its rate.
 */
export function admitRequest(admission: Admission, projectId: string): Record<string, string> {
  const limiter = admission.requests;
  if (!limiter) return {};
  const verdict = limiter.take(projectId);
  const headers = limitHeaders(verdict, admission.clock.now());
  if (!verdict.allowed) {
    const retryAfter = Number(headers['Retry-After']);
    throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Rate limit of ${limiter.limit} requests per minute exceeded`, {
      details: { retryAfter },
      suggestion: `Retry after ${retryAfter} seconds`,
      headers,
    });
  }
  return headers;
}
