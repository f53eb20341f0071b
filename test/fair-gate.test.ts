import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/errors.js';
import { FairGate } from '../src/limits/fair-gate.js';

const tick = () => new Promise((r) => setImmediate(r));
const refusal = { message: 'Too many', suggestion: 'Retry' };

test('one turn per key at a time, at most `slots` in all, waiting keys served in rotation', async () => {
  const gate = new FairGate({ slots: 2, maxWaiting: 10, refusal });
  const order: string[] = [];
  const take = (key: string) => gate.acquire(key).then((release) => (order.push(key), release));
  const a1 = await take('a');
  const b1 = await take('b');
  const waiting = [take('a'), take('a'), take('b'), take('c')];
  await tick();
  assert.equal(order, ['a', 'b'], 'a second turn of a busy key waits, and so does everyone past two slots');
  a1();
  await tick();
  assert.equal(order, ['a', 'b', 'a'], 'the first waiter whose key is free goes first');
  b1();
  await tick();
  assert.equal(order, ['a', 'b', 'a', 'b'], 'b, not a second a: a is busy');
  (await waiting[0]!)();
  await tick();
  assert.equal(order, ['a', 'b', 'a', 'b', 'c'], 'c waited longer than the second a');
  (await waiting[2]!)();
  await tick();
  assert.equal(order, ['a', 'b', 'a', 'b', 'c', 'a']);
  (await waiting[1]!)();
  (await waiting[3]!)();
});

test('past maxWaiting the gate refuses with 429 and Retry-After; a release is idempotent', async () => {
  const gate = new FairGate({ slots: 1, maxWaiting: 1, refusal });
  const first = await gate.acquire('a');
  const second = gate.acquire('b');
  try {
    await gate.acquire('c');
    assert.unreachable('should refuse');
  } catch (err) {
    assert.instance(err, ApiError);
    assert.is((err as ApiError).status, 429);
    assert.is((err as ApiError).extra.headers?.['Retry-After'], '5');
  }
  first();
  first();
  const release = await second;
  const third = gate.acquire('c');
  let entered = false;
  void third.then(() => (entered = true));
  await tick();
  assert.not.ok(entered, 'the double release did not free a second slot');
  release();
  (await third)();
});

test('perKey turns per key; one key\'s waiting pile is refused at its own bound while other keys still wait', async () => {
  const gate = new FairGate({ slots: 3, perKey: 2, maxWaiting: 10, maxWaitingPerKey: 2, refusal });
  const order: string[] = [];
  const take = (key: string) => gate.acquire(key).then((release) => (order.push(key), release));
  const a = [await take('a'), await take('a')];
  const waitingA = [take('a'), take('a')];
  await tick();
  assert.equal(order, ['a', 'a'], 'a third turn of a waits although a slot is free');
  try {
    await gate.acquire('a');
    assert.unreachable('a third waiter of a is refused');
  } catch (err) {
    assert.is((err as ApiError).status, 429);
    assert.is((err as ApiError).message, 'Too many');
  }
  const b = await take('b');
  assert.equal(order, ['a', 'a', 'b'], 'b takes the free slot at once, past a\'s waiting pile');
  const waitingB = take('b');
  a[0]!();
  await tick();
  assert.equal(order, ['a', 'a', 'b', 'a'], 'a waited first');
  b();
  await tick();
  assert.equal(order, ['a', 'a', 'b', 'a', 'b']);
  for (const release of [a[1]!, await waitingA[0]!, await waitingB]) release();
  (await waitingA[1]!)();
});

test.run();
