import PQueue from 'p-queue';
import type { Dns } from './resolver.js';

/** At most `concurrency` queries in flight; the rest wait their turn in memory (p-queue). */
export function limitedDns(dns: Dns, concurrency: number): Dns {
  const queue = new PQueue({ concurrency });
  const limited =
    <A extends unknown[], T>(lookup: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      queue.add(() => lookup(...args));
  return {
    mx: limited(dns.mx),
    a: limited(dns.a),
    aaaa: limited(dns.aaaa),
    txt: limited(dns.txt),
    ns: limited(dns.ns),
    resolve: limited(dns.resolve),
  };
}
