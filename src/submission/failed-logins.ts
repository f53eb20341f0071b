// Bounds on password guessing at SMTP AUTH. The user is always `postmill` and the password a secret
// key, so a guess is tried against every project at once: the account is the daemon's whole key
// space, and it gets a budget of its own beside each client's.
import type { Clock } from '../clock.js';
import { clientKey } from '../net/client-key.js';
import { SlidingWindow } from '../limits/sliding-window.js';

/** Failed logins per client (address, or IPv6 /64) and window before its logins are refused outright. */
const CLIENT_FAILURES = 5;
/** Failed logins of all clients together per window before logins of clients not trusted are refused. */
const DAEMON_FAILURES = 100;
const WINDOW_MS = 15 * 60_000;
/** A client that logged in within this time is trusted: a guessing campaign elsewhere does not hold it. */
const TRUST_MS = 30 * 24 * 3600_000;
/** Clients remembered at most, failing and trusted each: a flood of addresses cannot grow the memory without bound. */
const MAX_CLIENTS = 10_000;
const EVERY_CLIENT = '*';

export interface LoginRefusal {
  /** Whose failures closed the door: this client's, or all clients' together. */
  scope: 'client' | 'daemon';
  retryInSeconds: number;
}

/**
 * Failed SMTP logins in sliding windows, on the injected clock. A client past its own budget is
 * refused before its credentials are looked at, and so is a client without a recent login while
 * the daemon as a whole is past its budget: rotating addresses buys at most DAEMON_FAILURES
 * guesses per window. Only a refusal before the lookup bounds guessing (a correct key that went
 * through would answer every guess), so the daemon-wide refusal spares the clients that proved
 * themselves: a stranger's campaign never locks out the applications that already send.
 */
export class FailedLogins {
  private readonly byClient: SlidingWindow;
  private readonly daemonWide: SlidingWindow;
  /** Who logged in last when, as a window of one success per client. */
  private readonly trusted: SlidingWindow;

  constructor(private readonly clock: Clock) {
    this.byClient = new SlidingWindow(clock, CLIENT_FAILURES, WINDOW_MS, MAX_CLIENTS);
    this.daemonWide = new SlidingWindow(clock, DAEMON_FAILURES, WINDOW_MS);
    this.trusted = new SlidingWindow(clock, 1, TRUST_MS, MAX_CLIENTS);
  }

  private retryIn(at: number): number {
    return Math.max(1, Math.ceil((at - this.clock.now()) / 1000));
  }

  /** Why a login from `ip` is refused before its credentials are looked at; null when they may be. */
  refusal(ip: string): LoginRefusal | null {
    const key = clientKey(ip);
    const own = this.byClient.fullUntil(key);
    if (own !== null) return { scope: 'client', retryInSeconds: this.retryIn(own) };
    const all = this.daemonWide.fullUntil(EVERY_CLIENT);
    if (all !== null && this.trusted.fullUntil(key) === null) return { scope: 'daemon', retryInSeconds: this.retryIn(all) };
    return null;
  }

  failed(ip: string): void {
    this.byClient.hit(clientKey(ip));
    this.daemonWide.hit(EVERY_CLIENT);
  }

  succeeded(ip: string): void {
    this.trusted.hit(clientKey(ip));
  }
}
