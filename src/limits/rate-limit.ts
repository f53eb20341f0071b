import type { Clock } from '../clock.js';

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

/** The outcome of one request against a key's window. */
export interface LimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window. */
  resetSeconds: number;
}

/** A sliding-window limit of `perMinute` requests per key; idle keys are swept once a window. */
export class RollingLimit {
  private readonly windows = new Map<string, Window>();
  private lastSweep: number;

  constructor(
    private readonly clock: Clock,
    readonly perMinute: number,
  ) {
    this.lastSweep = clock.now();
  }

  /** Counts one request of `key` when there is room; a refused request is not counted. */
  take(key: string): LimitVerdict {
    const now = this.clock.now();
    if (now - this.lastSweep > WINDOW_MS) {
      for (const [k, w] of this.windows) if (w.prune(now) === 0) this.windows.delete(k);
      this.lastSweep = now;
    }
    let window = this.windows.get(key);
    if (!window) this.windows.set(key, (window = new Window(this.perMinute)));
    const used = window.prune(now);
    const resetSeconds = used > 0 ? Math.max(1, Math.ceil((window.oldest() + WINDOW_MS - now) / 1000)) : 60;
    const allowed = used < this.perMinute;
    if (allowed) window.add(now);
    return { allowed, limit: this.perMinute, remaining: allowed ? this.perMinute - used - 1 : 0, resetSeconds };
  }
}

/** The RateLimit-* headers of a verdict, and Retry-After on a refusal. */
export function limitHeaders(verdict: LimitVerdict): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(verdict.limit),
    'RateLimit-Remaining': String(verdict.remaining),
    'RateLimit-Reset': String(verdict.resetSeconds),
  };
  if (!verdict.allowed) headers['Retry-After'] = String(verdict.resetSeconds);
  return headers;
}
