// Typo suggestions: a domain one or two edits away from a common provider's is most likely that one.
import { isKnownDomain } from './lists.js';

/** The providers most addresses belong to; a typo of a rare domain cannot be told from a real name. */
const COMMON = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'ymail.com', 'hotmail.com', 'hotmail.co.uk',
  'hotmail.fr', 'outlook.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'protonmail.com',
  'proton.me', 'gmx.de', 'gmx.net', 'gmx.com', 'web.de', 't-online.de', 'mail.ru', 'yandex.ru', 'qq.com', '163.com',
  'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'orange.fr', 'free.fr', 'libero.it', 'zoho.com',
];

/**
 * Edits between two strings (insertions, deletions, substitutions and swaps of neighbours), or
 * `limit + 1` as soon as it is clear they are further apart than `limit`: three rows, no matrix.
 */
export function editDistance(a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
      rowBest = Math.min(rowBest, best);
    }
    if (rowBest > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** Short names allow one edit (two would reach other real names), longer ones two. */
const allowedEdits = (domain: string) => (domain.length < 9 ? 1 : 2);

/** The common provider `domain` is probably a typo of, or null. */
export function suggestDomain(domain: string): string | null {
  if (COMMON.includes(domain) || isKnownDomain(domain)) return null;
  let best: { domain: string; distance: number } | null = null;
  for (const candidate of COMMON) {
    const distance = editDistance(domain, candidate, allowedEdits(candidate));
    if (distance > 0 && distance <= allowedEdits(candidate) && (!best || distance < best.distance)) best = { domain: candidate, distance };
  }
  return best?.domain ?? null;
}
