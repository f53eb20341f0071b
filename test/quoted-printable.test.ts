import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toCrlf } from '../src/mail/compose/crlf.js';
import { quotedPrintable } from '../src/mail/compose/quoted-printable.js';

/**
 * The encoder as it was before it read strings: byte by byte over the UTF-8 of the text with CRLF
 * line breaks. The string encoder must write exactly its bytes.
 */
function byteByByte(text: string): Buffer {
  const input = Buffer.from(toCrlf(text), 'utf8');
  const hex = (b: number) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
  const sequence = (lead: number) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
  let out = '';
  let column = 0;
  const place = (written: string) => {
    if (column + written.length > 75) {
      out += '=\r\n';
      column = 0;
    }
    out += written;
    column += written.length;
  };
  for (let i = 0; i < input.length; ) {
    const b = input[i]!;
    const next = input[i + 1];
    const blankKept = (b === 0x20 || b === 0x09) && next !== undefined && next !== 0x0d && next !== 0x0a;
    if ((b >= 0x21 && b <= 0x7e && b !== 0x3d) || blankKept) {
      place(String.fromCharCode(b));
      i++;
    } else if (b === 0x0d && next === 0x0a) {
      out += '\r\n';
      column = 0;
      i += 2;
    } else {
      const n = b < 0x80 ? 1 : Math.min(sequence(b), input.length - i);
      place([...input.subarray(i, i + n)].map(hex).join(''));
      i += n;
    }
  }
  return Buffer.from(out, 'latin1');
}

const TRICKY = [
  '',
  'plain ascii',
  'x'.repeat(75),
  'x'.repeat(76),
  'x'.repeat(74) + '=',
  'x'.repeat(73) + 'é',
  'x'.repeat(72) + '😀',
  'trailing space \r\nand tab\t\nand at the end ',
  'two blanks at the end  ',
  ' \n \r \r\n',
  '= equals = and ==',
  'CR\ralone, LF\nalone, CRLF\r\n, LF CR\n\r, blank lines\n\n\r\n\r\r',
  'controls \u0000\u0001\u001f\u007f and C1 \u0080\u009f',
  'Grüße aus Köln — ünïcödé €😀',
  'lone surrogates \ud800 and \udc00 and swapped \udc00\ud800',
  'Здравствуйте, мир! '.repeat(10),
  `${'word '.repeat(40)}\r\n${'<p style="margin:0">'.repeat(8)}`,
];

test('quoted-printable: the bytes of the byte-by-byte encoder, on tricky inputs', () => {
  for (const text of TRICKY) assert.ok(quotedPrintable(text).equals(byteByByte(text)), JSON.stringify(text));
});

test('quoted-printable: the bytes of the byte-by-byte encoder, on random mixes of what matters', () => {
  const pieces = ['a', ' ', '\t', '=', '\r', '\n', '\r\n', 'é', '€', '😀', '\ud800', '.', '~', '\u0000', '\u007f', '\u07ff', '\u0800', '\uffff', 'x'.repeat(70), 'y'.repeat(75)];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
  for (let k = 0; k < 20_000; k++) {
    let text = '';
    for (let j = next(40); j > 0; j--) text += pieces[next(pieces.length)];
    assert.ok(quotedPrintable(text).equals(byteByByte(text)), JSON.stringify(text));
  }
});

/** RFC 2045 decoding: soft breaks removed, =XX to bytes. */
function decodeQp(encoded: Buffer): Buffer {
  const text = encoded.toString('latin1').replace(/=\r\n/g, '');
  return Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

test('quoted-printable: decodes to the CRLF text, lines of at most 76, no UTF-8 sequence split, line-end blanks escaped', () => {
  const samples = [
    'plain ascii '.repeat(50_000),
    `Grüße aus Köln — ünïcödé ${'€😀'.repeat(30_000)}\nsecond line \r\nthird\t\r\n= equals = ${'x'.repeat(200)}`,
    '\r\n'.repeat(10) + 'trailing blank ',
  ];
  for (const sample of samples) {
    const encoded = quotedPrintable(sample);
    assert.ok(decodeQp(encoded).equals(Buffer.from(toCrlf(sample), 'utf8')));
    for (const line of encoded.toString('latin1').split('\r\n')) {
      assert.ok(line.length <= 76, `line of ${line.length}`);
      assert.ok(/^[\x21-\x7e\t ]*$/.test(line), 'printable ASCII only');
      assert.not.ok(/[ \t]$/.test(line), 'no blank at the end of a line');
      // a soft-broken line ends on a whole UTF-8 sequence: its decoded bytes are valid UTF-8
      const decoded = decodeQp(Buffer.from(line.replace(/=$/, ''), 'latin1'));
      assert.is(Buffer.from(decoded.toString('utf8'), 'utf8').equals(decoded), true);
    }
  }
});

test.run();
