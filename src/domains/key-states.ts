import type { DomainKey } from './key-store.js';

/** A key as its owner sees it: a retiring key becomes safe to remove once the overlap has passed. */
export type KeyState = 'pending' | 'active' | 'retiring' | 'safe_to_remove';

const DAY_MS = 24 * 3600_000;

/** When a retiring key's record may leave DNS: the overlap after it stopped signing (null for other keys). */
export const safeToRemoveAt = (key: DomainKey, overlapDays: number): number | null =>
  key.state === 'retiring' && key.retiredAt !== null ? key.retiredAt + overlapDays * DAY_MS : null;

export function keyState(key: DomainKey, overlapDays: number, now: number): KeyState {
  const removable = safeToRemoveAt(key, overlapDays);
  return removable !== null && removable <= now ? 'safe_to_remove' : key.state;
}

const ORDER: Record<KeyState, number> = { active: 0, pending: 1, retiring: 2, safe_to_remove: 3 };

/** The keys in the order their records are shown: the signing RSA key first (what `purpose: dkim` clients read), then waiting, then old ones. */
export const byRelevance = <K extends { state: KeyState; algorithm: string }>(keys: K[]): K[] =>
  [...keys].sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.algorithm === b.algorithm ? 0 : a.algorithm === 'rsa' ? -1 : 1));
