// The one limiter: events per key in a sliding window, on the injected clock. The API's request
// rate, the public pages, the delivery throttle, failed SMTP logins and failed console sign-ins
// all count this way; they differ only in what they count and what a refusal means.
import type { Clock } from '../clock.js';

/** Event times of one key, oldest first: a ring of `limit` slots (more are never needed). */
class Times {
  private readonly times: Float64Array;
  private head = 0;
  size = 0;

  constructor(private readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  /** Drops the times that left the window; answers how many remain. */
  prune(since: number): number {
    while (this.size > 0 && this.times[this.head]! <= since) {
      this.head = (this.head + 1) % this.limit;
      this.size--;
    }
    return this.size;
  }

  /** Adds a time; when full, the oldest goes. */
  add(at: number): void {
    if (this.size === this.limit) {
      this.head = (this.head + 1) % this.limit;
      this.size--;
    }
    this.times[(this.head + this.size) % this.limit] = at;
    this.size++;
  }

  oldest(): number {
    return this.times[this.head]!;
  }

  /** The time of the `i`th oldest event (0: the oldest). */
  at(i: number): number {
    return this.times[(this.head + i) % this.limit]!;
  }
}

/** The outcome of one event against its key's window. */
export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  /** Events the key may still have in the window after this one. */
  remaining: number;
  /** When the oldest counted event leaves the window (the key's next place, if it is full). */
  retryAt: number;
}

/**
 * At most `limit` events per key in any `windowMs`. Keys that went quiet are swept once a window;
 * at most `maxKeys` are kept (the least recently counted go first), so a flood of keys (addresses)
 * cannot grow it without bound.
 */
export class SlidingWindow {
  private readonly keys = new Map<string, Times>();
  private lastSweep: number;

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {
    this.lastSweep = clock.now();
  }

  /** Counts one event of `key` when there is room; a refused one is not counted. */
  take(key: string): WindowVerdict {
    const now = this.clock.now();
    const times = this.timesOf(key, now);
    const used = times.size;
    const allowed = used < this.limit;
    if (allowed) this.record(key, times, now);
    return { allowed, limit: this.limit, remaining: allowed ? this.limit - used - 1 : 0, retryAt: used > 0 ? times.oldest() + this.windowMs : now + this.windowMs };
  }

  /** Counts one event of `key` whatever the count (a failure to remember). */
  hit(key: string): void {
    const now = this.clock.now();
    this.record(key, this.timesOf(key, now), now);
  }

  /**
   * When `key` may have an event again: null while its window has room. `pending` events not yet
   * counted (attempts still being judged) take their places as if they were counted now.
   */
  fullUntil(key: string, pending = 0): number | null {
    const now = this.clock.now();
    const times = this.timesOf(key, now);
    const over = times.size + pending - this.limit;
    if (over < 0) return null;
    return (over < times.size ? times.at(over) : now) + this.windowMs;
  }

  /** Forgets the key (a success that clears its failures). */
  forget(key: string): void {
    this.keys.delete(key);
  }

  private timesOf(key: string, now: number): Times {
    if (now - this.lastSweep > this.windowMs) {
      for (const [k, t] of this.keys) if (t.prune(now - this.windowMs) === 0) this.keys.delete(k);
      this.lastSweep = now;
    }
    const times = this.keys.get(key) ?? new Times(this.limit);
    times.prune(now - this.windowMs);
    return times;
  }

  private record(key: string, times: Times, at: number): void {
    times.add(at);
    // re-inserted last: the map's order is the order keys were last counted in
    this.keys.delete(key);
    this.keys.set(key, times);
    if (this.keys.size > this.maxKeys) this.keys.delete(this.keys.keys().next().value!);
  }
}

/** Seconds until `at`, at least 1 (what Retry-After and RateLimit-Reset say). */
export const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));
