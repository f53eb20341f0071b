import type { Middleware } from 'koa';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import type { ApiState } from './state.js';

const WINDOW_MS = 60_000;

/** Request times of one key in the rolling window, oldest first (a ring buffer of `limit` slots). */
class Window {
  private readonly times: Float64Array;
  private head = 0;
  private size = 0;

  constructor(private readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  /** Drops times older than the window; answers how many remain. */
  prune(now: number): number {
    while (this.size > 0 && this.times[this.head]! <= now - WINDOW_MS) {
      this.head = (this.head + 1) % this.limit;
      this.size--;
    }
    return this.size;
  }

  add(now: number): void {
    this.times[(this.head + this.size) % this.limit] = now;
    this.size++;
  }

  oldest(): number {
    return this.times[this.head]!;
  }
}

/**
 * A sliding-window limit per key (the project on API routes, the client address on public pages).
 * `perMinute` 0 turns it off. Answers carry RateLimit-* headers; a refusal is 429 with Retry-After.
 */
export function rateLimit(clock: Clock, perMinute: number, keyOf: (ctx: Parameters<Middleware<ApiState>>[0]) => string): Middleware<ApiState> {
  if (perMinute === 0) return (_ctx, next) => next();
  const windows = new Map<string, Window>();
  let lastSweep = clock.now();
  return async (ctx, next) => {
    const now = clock.now();
    if (now - lastSweep > WINDOW_MS) {
      for (const [key, w] of windows) if (w.prune(now) === 0) windows.delete(key);
      lastSweep = now;
    }
    const key = keyOf(ctx);
    let window = windows.get(key);
    if (!window) windows.set(key, (window = new Window(perMinute)));
    const used = window.prune(now);
    const resetSeconds = used > 0 ? Math.max(1, Math.ceil((window.oldest() + WINDOW_MS - now) / 1000)) : 60;
    ctx.set('RateLimit-Limit', String(perMinute));
    ctx.set('RateLimit-Reset', String(resetSeconds));
    if (used >= perMinute) {
      ctx.set('RateLimit-Remaining', '0');
      throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Rate limit of ${perMinute} requests per minute exceeded`, {
        details: { retryAfter: resetSeconds },
        suggestion: `Retry after ${resetSeconds} seconds`,
        headers: { 'Retry-After': String(resetSeconds) },
      });
    }
    window.add(now);
    ctx.set('RateLimit-Remaining', String(perMinute - used - 1));
    await next();
  };
}
