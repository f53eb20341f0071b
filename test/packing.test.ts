import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packMessage, unpackedMessage, unpackMessage } from '../src/emails/packing.js';
import { forStore } from '../src/compose/mime/stored.js';
import { composeReceipt } from './helpers/receipt.js';

const composed = composeReceipt(`<h1>Hello Ann</h1>${'<p style="margin:0 0 12px">Thank you for your order; the details follow.</p>'.repeat(40)}`);

test('a composed message is stored deflated, several times smaller, and comes back byte for byte', () => {
  const stored = forStore(composed);
  assert.is(stored.size, composed.raw.length);
  assert.is(stored.messageId, composed.messageId);
  assert.ok(stored.message.deflated);
  assert.ok(stored.message.bytes.length * 3 < composed.raw.length, `${stored.message.bytes.length} of ${composed.raw.length} bytes`);
  assert.ok(unpackMessage(stored.message).equals(composed.raw));
});

test('messages kept as they are (inbound mail, rows from before packing) read back unchanged', () => {
  const raw = Buffer.from('Subject: hi\r\n\r\nhello\r\n');
  assert.is(unpackMessage(unpackedMessage(raw)), raw);
  assert.ok(unpackMessage(packMessage(raw)).equals(raw));
});

test.run();
