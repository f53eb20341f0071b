// Sign-in throttling, per client address and per account, in memory (a restart forgets it, which
// only ever shortens a wait), with the daemon's one limiter (src/limits/sliding-window.ts). The
// rules (docs/console.md, "Sign-in throttling"):
//
// - Per address: 5 failures within 15 minutes hold the address until the oldest of them is 15
//   minutes old. A success forgets the address's failures.
// - Per account: 10 failures within 15 minutes, from anywhere, hold the account for the addresses
//   it has not signed in from in the last 30 days, until that window has fewer than 10. A stranger
//   can never hold an owner out for longer than that, and never at all from the addresses the
//   owner signs in from.
//
// A throttled attempt is answered 429 before its password is looked at, the same way whether the
// account exists or not. Every window keeps at most 10,000 keys, the least recently counted going
// first.
import type { Clock } from '../clock.js';
import { SlidingWindow } from '../limits/sliding-window.js';

const ADDRESS_FAILURES = 5;
const ACCOUNT_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const MAX_KEYS = 10_000;

export class LoginThrottle {
  private readonly addresses: SlidingWindow;
  /** Failures per account (the email, lower case: unknown emails count alike). */
  private readonly accounts: SlidingWindow;
  /** The addresses each account signed in from, as a window of one sign-in per (account, address). */
  private readonly known: SlidingWindow;

  constructor(private readonly clock: Clock) {
    this.addresses = new SlidingWindow(clock, ADDRESS_FAILURES, WINDOW_MS, MAX_KEYS);
    this.accounts = new SlidingWindow(clock, ACCOUNT_FAILURES, WINDOW_MS, MAX_KEYS);
    this.known = new SlidingWindow(clock, 1, KNOWN_ADDRESS_MS, MAX_KEYS);
  }

  /** Milliseconds this attempt must wait, or 0 when it may go on. */
  waitMs(address: string, account: string): number {
    const byAddress = this.addresses.fullUntil(address);
    const byAccount = this.known.fullUntil(knownKey(account, address)) === null ? this.accounts.fullUntil(account) : null;
    const until = Math.max(byAddress ?? 0, byAccount ?? 0);
    return Math.max(0, until - this.clock.now());
  }

  failed(address: string, account: string): void {
    this.addresses.hit(address);
    this.accounts.hit(account);
  }

  succeeded(address: string, account: string): void {
    this.addresses.forget(address);
    this.known.hit(knownKey(account, address));
  }
}

const knownKey = (account: string, address: string) => `${account}\n${address}`;
