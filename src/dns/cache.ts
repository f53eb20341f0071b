// Delivery asks where every message goes: an MX query and an address query or two per message
// without this (address verification keeps its answers the same way, for 10 minutes). Answers, an empty one (the name or type does not exist) included, are kept for a
// minute and lookups in flight are shared; failures are never kept, so a retry asks again.
import type { Clock } from '../clock.js';
import type { Dns } from './resolver.js';

const KEEP_MS = 60_000;
const MAX_ANSWERS = 10_000;

export function cachingDns(dns: Dns, clock: Clock, keepMs = KEEP_MS): Dns {
  const answers = new Map<string, { at: number; answer: Promise<unknown> }>();
  const kept =
    <T>(type: string, lookup: (name: string) => Promise<T>) =>
    (name: string): Promise<T> => {
      const key = `${type} ${name.toLowerCase()}`;
      const now = clock.now();
      const hit = answers.get(key);
      if (hit && now - hit.at < keepMs) return hit.answer as Promise<T>;
      if (answers.size >= MAX_ANSWERS) answers.clear();
      const answer = lookup(name);
      answers.set(key, { at: now, answer });
      answer.catch(() => {
        if (answers.get(key)?.answer === answer) answers.delete(key);
      });
      return answer;
    };
  return { ...dns, mx: kept('MX', dns.mx), a: kept('A', dns.a), aaaa: kept('AAAA', dns.aaaa), ns: kept('NS', dns.ns) };
}
