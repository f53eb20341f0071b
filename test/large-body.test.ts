import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64Lines, quotedPrintable } from '../src/mail/compose/large-body.js';

/** RFC 2045 decoding: soft breaks removed, =XX to bytes. */
function decodeQp(encoded: Buffer): Buffer {
  const text = encoded.toString('latin1').replace(/=\r\n/g, '');
  return Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

const lines = (b: Buffer) => b.toString('latin1').split('\r\n');

test('quoted-printable: decodes to the input, lines of at most 76, no UTF-8 sequence split, line-end blanks escaped', () => {
  const samples = [
    'plain ascii '.repeat(5000),
    `Grüße aus Köln — ünïcödé ${'€😀'.repeat(3000)}\r\nsecond line \r\nthird\t\r\n= equals = ${'x'.repeat(200)}`,
    '\r\n'.repeat(10) + 'trailing blank ',
  ];
  for (const sample of samples) {
    const input = Buffer.from(sample, 'utf8');
    const encoded = quotedPrintable(input);
    assert.ok(decodeQp(encoded).equals(input));
    for (const line of lines(encoded)) {
      assert.ok(line.length <= 76, `line of ${line.length}`);
      assert.ok(/^[\x21-\x7e\t ]*$/.test(line), 'printable ASCII only');
      assert.not.ok(/[ \t]$/.test(line), 'no blank at the end of a line');
      // a soft-broken line ends on a whole UTF-8 sequence: its decoded bytes are valid UTF-8
      const decoded = decodeQp(Buffer.from(line.replace(/=$/, ''), 'latin1'));
      assert.is(Buffer.from(decoded.toString('utf8'), 'utf8').equals(decoded), true);
    }
  }
});

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
