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
// account exists or not. An attempt takes its place before it is judged: while its password is
// checked (~100 ms of scrypt) it counts as a failure already, so attempts sent at once cannot all
// pass the check before the first failure is counted. Every window keeps at most 10,000 keys, the
// least recently counted going first.
import type { Clock } from '../clock.js';
import { SlidingWindow } from '../limits/sliding-window.js';

const ADDRESS_FAILURES = 5;
const ACCOUNT_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const MAX_KEYS = 10_000;

/** An attempt holding its place in the windows while it is judged. */
export interface Place {
  /** The verdict: a failure stays counted, a success forgets the address's failures; null (the check itself failed) counts nothing. */
  settle(succeeded: boolean | null): void;
}

/** Attempts being judged per key; a key leaves at zero, so it holds no more keys than requests in flight. */
class InFlight {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.of(key) + 1);
  }

  remove(key: string): void {
    const left = this.of(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

export class LoginThrottle {
  private readonly addresses: SlidingWindow;
  /** Failures per account (the email, lower case: unknown emails count alike). */
  private readonly accounts: SlidingWindow;
  /** The addresses each account signed in from, as a window of one sign-in per (account, address). */
  private readonly known: SlidingWindow;
  private readonly judgedAddresses = new InFlight();
  private readonly judgedAccounts = new InFlight();

  constructor(private readonly clock: Clock) {
    this.addresses = new SlidingWindow(clock, ADDRESS_FAILURES, WINDOW_MS, MAX_KEYS);
    this.accounts = new SlidingWindow(clock, ACCOUNT_FAILURES, WINDOW_MS, MAX_KEYS);
    this.known = new SlidingWindow(clock, 1, KNOWN_ADDRESS_MS, MAX_KEYS);
  }

  /**
   * The attempt's place, taken before it is judged (every place is settled once), or the
   * milliseconds it must wait, with nothing taken.
   */
  take(address: string, account: string): Place | number {
    const wait = this.waitMs(address, account);
    if (wait > 0) return wait;
    this.judgedAddresses.add(address);
    this.judgedAccounts.add(account);
    return {
      settle: (succeeded) => {
        this.judgedAddresses.remove(address);
        this.judgedAccounts.remove(account);
        if (succeeded === true) this.succeeded(address, account);
        if (succeeded === false) this.failed(address, account);
      },
    };
  }

  /** Milliseconds an attempt must wait, counting the attempts still being judged as failures; 0 when it may go on. */
  private waitMs(address: string, account: string): number {
    const byAddress = this.addresses.fullUntil(address, this.judgedAddresses.of(address));
    const byAccount = this.known.fullUntil(knownKey(account, address)) === null ? this.accounts.fullUntil(account, this.judgedAccounts.of(account)) : null;
    const until = Math.max(byAddress ?? 0, byAccount ?? 0);
    return Math.max(0, until - this.clock.now());
  }

  private failed(address: string, account: string): void {
    this.addresses.hit(address);
    this.accounts.hit(account);
  }

  private succeeded(address: string, account: string): void {
    this.addresses.forget(address);
    this.known.hit(knownKey(account, address));
  }
}

const knownKey = (account: string, address: string) => `${account}\n${address}`;
