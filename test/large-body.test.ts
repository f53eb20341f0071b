import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64Lines } from '../src/compose/mime/large-body.js';

const lines = (b: Buffer) => b.toString('latin1').split('\r\n');

test('base64 lines: 76 characters each, CRLF between, decodes to the input', () => {
  for (const size of [0, 1, 56, 57, 58, 3 * 57, 100_000]) {
    const input = randomBytes(size);
    const encoded = base64Lines(input);
    const all = lines(encoded);
    assert.ok(all.every((l, i) => (i < all.length - 1 ? l.length === 76 : l.length <= 76)));
    assert.ok(Buffer.from(all.join(''), 'base64').equals(input));
  }
});

test.run();
