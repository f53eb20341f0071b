// Request rates: the RateLimit-* headers an answer carries for its key's window.
import { secondsUntil, type WindowVerdict } from './sliding-window.js';

/** A minute, the window of the API's rate (`rateLimit.perMinute`) and of the public pages. */
export const RATE_WINDOW_MS = 60_000;

/** The RateLimit-* headers of a verdict, and Retry-After on a refusal. */
export function limitHeaders(verdict: WindowVerdict, now: number): Record<string, string> {
  const reset = String(secondsUntil(verdict.retryAt, now));
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(verdict.limit),
    'RateLimit-Remaining': String(verdict.remaining),
    'RateLimit-Reset': reset,
  };
  if (!verdict.allowed) headers['Retry-After'] = reset;
  return headers;
}
