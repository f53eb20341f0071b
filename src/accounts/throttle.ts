// Login throttling, per client address and per account, kept in memory (a restart forgets it, which
// only ever shortens a wait). The rules (docs/architecture.md, "Accounts"):
//
// - Per address: 5 failures are free; each failure after that locks the address for twice as long
//   as the one before (1 s, 2 s, 4 s ... at most 15 minutes). An address is forgotten an hour after
//   its last failure, or at its first success.
// - Per account: 10 failures within 15 minutes, from anywhere, lock the account for the addresses
//   it has not signed in from in the last 30 days, until that window has fewer than 10 failures
//   (at most 15 minutes). A stranger can never lock an owner out for longer than that, and never
//   at all from the addresses the owner signs in from.
//
// A throttled attempt is answered 429 before its password is looked at, the same way whether the
// account exists or not. Maps are bounded: the oldest entries go first.
import type { Clock } from '../clock.js';

const FREE_FAILURES = 5;
const MAX_LOCK_MS = 15 * 60_000;
const ADDRESS_MEMORY_MS = 60 * 60_000;
const ACCOUNT_FAILURES = 10;
const ACCOUNT_WINDOW_MS = 15 * 60_000;
const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const MAX_ENTRIES = 10_000;

interface AddressState {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

/** A Map that forgets its oldest entry past `max` (insertion order; a write moves an entry to the end). */
class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.max) super.delete(this.keys().next().value!);
    return this;
  }
}

export class LoginThrottle {
  private readonly addresses = new BoundedMap<AddressState>(MAX_ENTRIES);
  /** Failure times within the window, per account (the email, lower case: unknown emails count alike). */
  private readonly accounts = new BoundedMap<number[]>(MAX_ENTRIES);
  /** Per account, the addresses it signed in from, with the time. */
  private readonly known = new BoundedMap<BoundedMap<number>>(MAX_ENTRIES);

  constructor(private readonly clock: Clock) {}

  /** Milliseconds this attempt must wait, or 0 when it may go on. */
  waitMs(address: string, account: string): number {
    const now = this.clock.now();
    const byAddress = this.addressState(address, now);
    const addressWait = byAddress ? Math.max(0, byAddress.lockedUntil - now) : 0;
    return Math.max(addressWait, this.knownAddress(account, address, now) ? 0 : this.accountWait(account, now));
  }

  failed(address: string, account: string): void {
    const now = this.clock.now();
    const state = this.addressState(address, now) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    state.failures += 1;
    state.lastFailure = now;
    if (state.failures > FREE_FAILURES) state.lockedUntil = now + Math.min(1000 * 2 ** (state.failures - FREE_FAILURES - 1), MAX_LOCK_MS);
    this.addresses.set(address, state);
    const recent = this.recentFailures(account, now);
    recent.push(now);
    this.accounts.set(account, recent.slice(-ACCOUNT_FAILURES));
  }

  succeeded(address: string, account: string): void {
    this.addresses.delete(address);
    const known = this.known.get(account) ?? new BoundedMap<number>(100);
    known.set(address, this.clock.now());
    this.known.set(account, known);
  }

  private addressState(address: string, now: number): AddressState | null {
    const state = this.addresses.get(address);
    if (!state) return null;
    if (now - state.lastFailure > ADDRESS_MEMORY_MS && now >= state.lockedUntil) {
      this.addresses.delete(address);
      return null;
    }
    return state;
  }

  private recentFailures(account: string, now: number): number[] {
    return (this.accounts.get(account) ?? []).filter((t) => now - t < ACCOUNT_WINDOW_MS);
  }

  private accountWait(account: string, now: number): number {
    const recent = this.recentFailures(account, now);
    return recent.length < ACCOUNT_FAILURES ? 0 : recent[recent.length - ACCOUNT_FAILURES]! + ACCOUNT_WINDOW_MS - now;
  }

  private knownAddress(account: string, address: string, now: number): boolean {
    const at = this.known.get(account)?.get(address);
    return at !== undefined && now - at < KNOWN_ADDRESS_MS;
  }
}
