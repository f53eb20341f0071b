// A function's answers remembered by key, for work whose keys repeat (a campaign's template in every
// message, a domain's DKIM key in every signature) but are not bounded in number. Least recently
// used answers go first (lru-cache): a hit costs ~50 ns against ~20 for a FIFO map, nothing beside
// the work it saves, and a busy template outlives a burst of one-off ones.
import { LRUCache } from 'lru-cache';

/** `compute`, remembering at most `limit` answers (null and undefined included, boxed: the cache keeps neither). */
export function memoized<K extends {}, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const answers = new LRUCache<K, { answer: V }>({ max: limit });
  return (key) => {
    const known = answers.get(key);
    if (known) return known.answer;
    const answer = compute(key);
    answers.set(key, { answer });
    return answer;
  };
}

/**
 * Sources longer than this are worked on each time instead: templates that repeat are far smaller,
 * and one heavy body remembered (with what was made of it) would keep tens of MB of the heavy
 * thread's bounded heap from the next request.
 */
const MAX_REMEMBERED_SOURCE = 256 * 1024;

/** `memoized` for work on a template source: a source past MAX_REMEMBERED_SOURCE is not remembered. */
export function memoizedSource<V>(limit: number, compute: (source: string) => V): (source: string) => V {
  const remembered = memoized(limit, compute);
  return (source) => (source.length > MAX_REMEMBERED_SOURCE ? compute(source) : remembered(source));
}

/**
 * `compute`'s promises remembered by key for `keepMs` of `clock` (at most `limit` keys, least recently
 * used go first); a promise that rejects is forgotten, so the next call asks again. Lookups in flight
 * are shared.
 */
export function keptFor<V>(clock: { now(): number }, keepMs: number, limit: number, compute: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const answers = new LRUCache<string, { until: number; answer: Promise<V> }>({ max: limit });
  return (key) => {
    const known = answers.get(key);
    if (known && clock.now() < known.until) return known.answer;
    const entry = { until: clock.now() + keepMs, answer: compute(key) };
    answers.set(key, entry);
    entry.answer.catch(() => answers.get(key) === entry && answers.delete(key));
    return entry.answer;
  };
}
