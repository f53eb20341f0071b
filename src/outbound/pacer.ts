import type { Clock } from '../clock.js';

/**
 * A rate per key: the per-project rate of bulk mail (`delivery.bulkPerSecond`, which transactional
 * mail never asks) and a mailbox provider's rate (`perMinute`, src/outbound/shaping/). A token
 * bucket holding up to a second's worth (at least one). A job over the rate is given the next free
 * slot, reserved for it, so that a backlog comes due spread out at the rate instead of all at once
 * at every refill. 0 turns it off. In memory: after a restart a key may start one second's worth
 * at once. A pacer, not the daemon's limiter (src/limits/sliding-window.ts): a window answers
 * every waiting job with the same instant, its next free place, and a backlog of thousands would
 * come due, be claimed and be put back together at each one; here each gets a slot of its own.
 */
export class Pacer {
  private readonly keys = new Map<string, { tokens: number; at: number; nextSlot: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly perSecond: number,
  ) {}

  /** Null when `key` may start a delivery now (and counts it); otherwise when to come back. */
  take(key: string): number | null {
    if (this.perSecond === 0) return null;
    const now = this.clock.now();
    const burst = Math.max(1, this.perSecond);
    const state = this.keys.get(key) ?? { tokens: burst, at: now, nextSlot: now };
    state.tokens = Math.min(burst, state.tokens + ((now - state.at) * this.perSecond) / 1000);
    state.at = now;
    this.keys.set(key, state);
    // a job back at its reserved slot finds its token refilled; the margin absorbs float rounding
    if (state.tokens >= 1 - 1e-6) {
      state.tokens = Math.max(state.tokens - 1, 0);
      return null;
    }
    const interval = 1000 / this.perSecond;
    state.nextSlot = Math.max(state.nextSlot, now + (1 - state.tokens) * interval) + interval;
    return Math.ceil(state.nextSlot - interval);
  }
}
