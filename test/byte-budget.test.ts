import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteBudget } from '../src/outbound/byte-budget.js';

const settled = () => new Promise((r) => setImmediate(r));

test('holders fit together up to the capacity; the next waits for a release, first come first served', async () => {
  const budget = new ByteBudget(10);
  const order: string[] = [];
  const a = await budget.take(6);
  const b = await budget.take(4);
  const c = budget.take(5).then((release) => (order.push('c'), release));
  const d = budget.take(1).then((release) => (order.push('d'), release));
  await settled();
  assert.equal(order, [], 'full: nobody else gets in, not even a small one behind a waiting large one');
  a();
  await settled();
  assert.equal(order, ['c', 'd']);
  b();
  (await c)();
  (await d)();
});

test('one larger than the whole budget waits for it to be empty, then goes alone', async () => {
  const budget = new ByteBudget(10);
  const small = await budget.take(3);
  const granted: (() => void)[] = [];
  void budget.take(50).then((release) => granted.push(release));
  let after = false;
  void budget.take(1).then(() => (after = true));
  await settled();
  assert.is(granted.length, 0);
  small();
  await settled();
  assert.is(granted.length, 1, 'granted once nothing else is held');
  assert.not.ok(after, 'alone');
  granted[0]!();
  await settled();
  assert.ok(after);
});

test.run();
