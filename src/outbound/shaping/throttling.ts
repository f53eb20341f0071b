import { enhancedCodeOf } from '../engine/attempt.js';

/** Codes a provider throttles with: 421 (closing), 450 and 451 (try later). 452 is about recipients, not rate. */
const THROTTLE_CODES = new Set([421, 450, 451]);

/** Words of throttling replies (Gmail, Yahoo, Microsoft, Apple, Mail.ru...) beside their 4.7.x codes. */
const THROTTLE_TEXT = /try (?:again )?later|rate[- ]limit|too many|too fast|throttl|unusual (?:rate|volume)|unexpected volume|temporarily (?:deferred|rate limited)|exceeded/i;

/** Greylisting also answers 451 4.7.1, but it is about one triplet, not the sender's rate. */
const GREYLISTING = /grey ?list|gray ?list/i;

/**
 * Whether a temporary reply is a provider telling us to slow down: a 421/450/451 with an enhanced
 * code in the 4.7.x (security or policy) class, or one whose text says "try again later", "rate
 * limit", "too many" and the like. Greylisting is not throttling, nor is Gmail's 4.2.1 (one
 * recipient receiving too fast), nor a 421 without such words (a busy or closing server, which
 * the destination's concurrency window already answers).
 */
export function isThrottling(code: number | null, response: string): boolean {
  if (code === null || !THROTTLE_CODES.has(code)) return false;
  if (GREYLISTING.test(response)) return false;
  const enhanced = enhancedCodeOf(response);
  if (enhanced?.startsWith('4.2.')) return false;
  if (enhanced?.startsWith('4.7.')) return true;
  return THROTTLE_TEXT.test(response);
}
