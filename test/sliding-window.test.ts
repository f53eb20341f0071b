import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { SlidingWindow } from '../src/limits/sliding-window.js';

test('take: at most `limit` per key in any window; a refusal is not counted and names when the oldest leaves', () => {
  const clock = new ShiftableClock();
  const window = new SlidingWindow(clock, 3, 60_000);
  const start = clock.now();
  assert.equal([1, 2, 3].map(() => window.take('a').allowed), [true, true, true]);
  const refused = window.take('a');
  assert.is(refused.allowed, false);
  assert.is(refused.remaining, 0);
  assert.ok(refused.retryAt >= start + 60_000 && refused.retryAt <= clock.now() + 60_000);
  assert.is(window.take('b').allowed, true, 'keys are apart');
  clock.advance(60_001);
  assert.is(window.take('a').remaining, 2, 'the window slid past all three');
});

test('hit counts whatever the count; fullUntil says until when; forget clears a key', () => {
  const clock = new ShiftableClock();
  const window = new SlidingWindow(clock, 2, 1_000);
  window.hit('x');
  assert.is(window.fullUntil('x'), null);
  clock.advance(100);
  window.hit('x');
  window.hit('x');
  const until = window.fullUntil('x');
  assert.ok(until !== null && until > clock.now() && until <= clock.now() + 1_000, String(until));
  window.forget('x');
  assert.is(window.fullUntil('x'), null);
});

test('fullUntil counts pending events as if counted now: full once the counted and the pending fill the window', () => {
  const clock = new ShiftableClock();
  const window = new SlidingWindow(clock, 3, 1_000);
  const first = clock.now();
  window.hit('x');
  clock.advance(100);
  assert.is(window.fullUntil('x', 1), null, 'one counted, one pending: room for a third');
  assert.is(window.fullUntil('x', 2), first + 1_000, 'one counted, two pending: full until the counted one leaves');
  assert.is(window.fullUntil('x', 3), first + 100 + 1_000, 'past the limit: until the pending ones would leave');
  assert.is(window.fullUntil('y', 3), clock.now() + 1_000, 'only pending ones: as if all were counted now');
});

test('at most `maxKeys` are kept, the least recently counted going first', () => {
  const clock = new ShiftableClock();
  const window = new SlidingWindow(clock, 1, 60_000, 2);
  window.hit('a');
  window.hit('b');
  window.hit('a');
  window.hit('c');
  assert.is(window.fullUntil('b'), null, 'b was counted least recently and is forgotten');
  assert.ok(window.fullUntil('a') !== null && window.fullUntil('c') !== null);
});

test.run();
