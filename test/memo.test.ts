import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoized } from '../src/memo.js';

test('an answer is computed once per key, null included', () => {
  const computed: string[] = [];
  const lookup = memoized(10, (key: string) => (computed.push(key), key === 'none' ? null : key.toUpperCase()));
  assert.equal([lookup('a'), lookup('a'), lookup('none'), lookup('none')], ['A', 'A', null, null]);
  assert.equal(computed, ['a', 'none']);
});

test('past the limit the oldest answer is forgotten, the newer ones kept', () => {
  const computed: number[] = [];
  const square = memoized(2, (n: number) => (computed.push(n), n * n));
  [1, 2, 3, 3, 2, 1].forEach(square);
  assert.equal(computed, [1, 2, 3, 1]);
});

test.run();
