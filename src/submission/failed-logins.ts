import type { Clock } from '../clock.js';

/** Bad logins allowed per client address and window, before AUTH is refused outright. */
const MAX_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
/** Addresses remembered at most: a flood of addresses cannot grow the map without bound. */
const MAX_ADDRESSES = 10_000;

/** Failed SMTP logins per client address in a rolling window. */
export class FailedLogins {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  private recent(ip: string): number[] {
    const since = this.clock.now() - WINDOW_MS;
    const times = (this.failures.get(ip) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(ip);
    else this.failures.set(ip, times);
    return times;
  }

  /** Seconds until `ip` may try again; 0 when it may now. */
  blockedFor(ip: string): number {
    const times = this.recent(ip);
    return times.length < MAX_FAILURES ? 0 : Math.ceil((times[0]! + WINDOW_MS - this.clock.now()) / 1000);
  }

  record(ip: string): void {
    if (!this.failures.has(ip) && this.failures.size >= MAX_ADDRESSES) {
      this.failures.delete(this.failures.keys().next().value!);
    }
    this.failures.set(ip, [...this.recent(ip), this.clock.now()]);
  }
}
