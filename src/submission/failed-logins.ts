// Bounds on password guessing at SMTP AUTH. The user is always `postmill` and the password a secret
// key, so a guess is tried against every project at once: the account is the daemon's whole key
// space, and it gets a budget of its own beside each client's.
import type { Clock } from '../clock.js';
import { clientKey } from '../net/client-key.js';

/** Failed logins per client (address, or IPv6 /64) and window before its logins are refused outright. */
const CLIENT_FAILURES = 5;
/** Failed logins of all clients together per window before logins of clients not trusted are refused. */
const DAEMON_FAILURES = 100;
const WINDOW_MS = 15 * 60_000;
/** A client that logged in within this time is trusted: a guessing campaign elsewhere does not hold it. */
const TRUST_MS = 30 * 24 * 3600_000;
/** Clients remembered at most, failing and trusted each: a flood of addresses cannot grow the maps without bound. */
const MAX_CLIENTS = 10_000;

export interface LoginRefusal {
  /** Whose failures closed the door: this client's, or all clients' together. */
  scope: 'client' | 'daemon';
  retryInSeconds: number;
}

/** Sets `key` in a map that keeps at most MAX_CLIENTS keys, forgetting the oldest first. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_CLIENTS) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * Failed SMTP logins in rolling windows, on the injected clock. A client past its own budget is
 * refused before its credentials are looked at, and so is a client without a recent login while
 * the daemon as a whole is past its budget: rotating addresses buys at most DAEMON_FAILURES
 * guesses per window. Only a refusal before the lookup bounds guessing (a correct key that went
 * through would answer every guess), so the daemon-wide refusal spares the clients that proved
 * themselves: a stranger's campaign never locks out the applications that already send.
 */
export class FailedLogins {
  private readonly byClient = new Map<string, number[]>();
  /** The times of the last DAEMON_FAILURES failures, oldest first. */
  private daemonWide: number[] = [];
  private readonly trusted = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  private since(): number {
    return this.clock.now() - WINDOW_MS;
  }

  private retryIn(oldest: number): number {
    return Math.max(1, Math.ceil((oldest + WINDOW_MS - this.clock.now()) / 1000));
  }

  private clientFailures(key: string): number[] {
    const since = this.since();
    const times = (this.byClient.get(key) ?? []).filter((t) => t > since);
    if (times.length === 0) this.byClient.delete(key);
    else this.byClient.set(key, times);
    return times;
  }

  private isTrusted(key: string): boolean {
    const last = this.trusted.get(key);
    if (last !== undefined && last > this.clock.now() - TRUST_MS) return true;
    this.trusted.delete(key);
    return false;
  }

  /** Why a login from `ip` is refused before its credentials are looked at; null when they may be. */
  refusal(ip: string): LoginRefusal | null {
    const key = clientKey(ip);
    const own = this.clientFailures(key);
    if (own.length >= CLIENT_FAILURES) return { scope: 'client', retryInSeconds: this.retryIn(own[0]!) };
    this.daemonWide = this.daemonWide.filter((t) => t > this.since());
    if (this.daemonWide.length >= DAEMON_FAILURES && !this.isTrusted(key)) return { scope: 'daemon', retryInSeconds: this.retryIn(this.daemonWide[0]!) };
    return null;
  }

  failed(ip: string): void {
    const key = clientKey(ip);
    const now = this.clock.now();
    remember(this.byClient, key, [...this.clientFailures(key), now]);
    this.daemonWide.push(now);
    if (this.daemonWide.length > DAEMON_FAILURES) this.daemonWide.shift();
  }

  succeeded(ip: string): void {
    remember(this.trusted, clientKey(ip), this.clock.now());
  }
}
