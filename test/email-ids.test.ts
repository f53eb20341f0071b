import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newEmailId } from '../src/emails/ids.js';
import { emailIdFromVerp, verpAddress } from '../src/inbound/classify.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('an email id is a UUID v7 whose first 48 bits are the millisecond it was made', () => {
  const at = Date.UTC(2026, 10, 24, 15, 30, 0, 123);
  const id = newEmailId(at);
  assert.match(id, V7);
  assert.is(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), at);
});

test('ids of later milliseconds sort after earlier ones; ids of one millisecond differ', () => {
  const start = Date.UTC(2026, 0, 1);
  const ids = Array.from({ length: 2000 }, (_, i) => newEmailId(start + Math.floor(i / 10)));
  for (let i = 10; i < ids.length; i++) assert.ok(ids[i - 10]! < ids[i]!, `${ids[i - 10]} before ${ids[i]}`);
  assert.is(new Set(ids).size, ids.length);
  for (const id of ids.slice(0, 50)) assert.match(id, V7);
});

test('VERP addresses carry v7 email ids, and v4 ones of mail sent before', () => {
  for (const id of [newEmailId(Date.now()), '786e17de-f7ae-407a-bfc8-7db485549fe9']) {
    assert.is(emailIdFromVerp(verpAddress(id, 'shop.example')), id);
  }
});

test.run();
