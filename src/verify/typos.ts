// Typo suggestions: a domain one or two edits away from a common provider's is most likely that one.
import { isKnownDomain } from './lists.js';

/** The providers most addresses belong to; a typo of a rare domain cannot be told from a real name. */
const COMMON = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'ymail.com', 'hotmail.com', 'hotmail.co.uk',
  'hotmail.fr', 'outlook.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'protonmail.com',
  'proton.me', 'gmx.de', 'gmx.net', 'gmx.com', 'web.de', 't-online.de', 'mail.ru', 'yandex.ru', 'qq.com', '163.com',
  'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'orange.fr', 'free.fr', 'libero.it', 'zoho.com',
];

/** Edits between two strings (insertions, deletions, substitutions and swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Short names allow one edit (two would reach other real names), longer ones two. */
const allowedEdits = (domain: string) => (domain.length < 9 ? 1 : 2);

/** The common provider `domain` is probably a typo of, or null. */
export function suggestDomain(domain: string): string | null {
  if (COMMON.includes(domain) || isKnownDomain(domain)) return null;
  let best: { domain: string; distance: number } | null = null;
  for (const candidate of COMMON) {
    const distance = editDistance(domain, candidate);
    if (distance > 0 && distance <= allowedEdits(candidate) && (!best || distance < best.distance)) best = { domain: candidate, distance };
  }
  return best?.domain ?? null;
}
