// Delivery asks where every message goes: an MX query and an address query or two per message
// without this. Answers, an empty one (the name or type does not exist) included, are kept for a
// while and lookups in flight are shared. Failures (timeouts, SERVFAIL) are kept only as long as the
// caller says: delivery keeps none, so a retry asks again; address verification keeps them briefly,
// so a name whose servers never answer costs one timeout, not one per request.
import type { Clock } from '../clock.js';
import type { Dns } from './resolver.js';

const MAX_ANSWERS = 10_000;

export interface DnsCacheTimes {
  /** How long an answer (an empty one too) is kept. */
  keepMs: number;
  /** How long a failed lookup is kept; 0: never. */
  failureMs: number;
}

const DELIVERY_TIMES: DnsCacheTimes = { keepMs: 60_000, failureMs: 0 };

export function cachingDns(dns: Dns, clock: Clock, times: DnsCacheTimes = DELIVERY_TIMES): Dns {
  const answers = new Map<string, { until: number; answer: Promise<unknown> }>();
  const kept =
    <T>(type: string, lookup: (name: string) => Promise<T>) =>
    (name: string): Promise<T> => {
      const key = `${type} ${name.toLowerCase()}`;
      const hit = answers.get(key);
      if (hit && clock.now() < hit.until) return hit.answer as Promise<T>;
      if (answers.size >= MAX_ANSWERS) answers.clear();
      const answer = lookup(name);
      const entry = { until: clock.now() + times.keepMs, answer };
      answers.set(key, entry);
      answer.catch(() => {
        if (answers.get(key) !== entry) return;
        if (times.failureMs > 0) entry.until = clock.now() + times.failureMs;
        else answers.delete(key);
      });
      return answer;
    };
  return { ...dns, mx: kept('MX', dns.mx), a: kept('A', dns.a), aaaa: kept('AAAA', dns.aaaa), ns: kept('NS', dns.ns) };
}
