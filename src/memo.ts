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
