import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoized } from '../src/memo.js';

test('an answer is computed once per key, null included', () => {
  const computed: string[] = [];
  const lookup = memoized(10, (key: string) => (computed.push(key), key === 'none' ? null : key.toUpperCase()));
  assert.equal([lookup('a'), lookup('a'), lookup('none'), lookup('none')], ['A', 'A', null, null]);
  assert.equal(computed, ['a', 'none']);
});

test('past the limit the least recently used answer is forgotten, the others kept', () => {
  const computed: number[] = [];
  const square = memoized(2, (n: number) => (computed.push(n), n * n));
  [1, 2, 1, 3, 1, 2].forEach(square);
  assert.equal(computed, [1, 2, 3, 2], '1 was used after 2, so 3 pushed 2 out');
});

test.run();
