// A function's answers remembered by key, for work whose keys repeat (a campaign's template in every
// message, a domain's DKIM key in every signature) but are not bounded in number.

/** `compute`, remembering at most `limit` answers (null and undefined included); past that the oldest is forgotten. */
export function memoized<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const answers = new Map<K, V>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as V;
    const answer = compute(key);
    if (answers.size >= limit) answers.delete(answers.keys().next().value as K);
    answers.set(key, answer);
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
