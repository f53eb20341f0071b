import libqp from 'libqp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toCrlf } from '../src/compose/mime/crlf.js';
import { quotedPrintable } from '../src/compose/mime/quoted-printable.js';

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

/** What nodemailer's codec (libqp) reads back from ours is the UTF-8 of the CRLF text, as is what it reads from its own encoding; and every line keeps the rules. */
function agreesWithLibqp(text: string): void {
  const ours = quotedPrintable(text);
  const expected = Buffer.from(toCrlf(text), 'utf8');
  assert.ok(libqp.decode(ours.toString('latin1')).equals(expected), `libqp reads ours back: ${JSON.stringify(text)}`);
  assert.ok(libqp.decode(libqp.wrap(libqp.encode(expected), 76)).equals(expected), `libqp reads its own back: ${JSON.stringify(text)}`);
  for (const line of ours.toString('latin1').split('\r\n')) {
    assert.ok(line.length <= 76, `line of ${line.length}`);
    assert.ok(/^[\x21-\x7e\t ]*$/.test(line), 'printable ASCII only');
    assert.not.ok(/[ \t]$/.test(line), 'no blank at the end of a line');
  }
}

test('quoted-printable: libqp decodes it to the CRLF text, on tricky inputs', () => {
  for (const text of TRICKY) agreesWithLibqp(text);
});

test('quoted-printable: libqp decodes it to the CRLF text, on random mixes of what matters', () => {
  const pieces = ['a', ' ', '\t', '=', '\r', '\n', '\r\n', 'é', '€', '😀', '\ud800', '.', '~', '\u0000', '\u007f', '\u07ff', '\u0800', '\uffff', 'x'.repeat(70), 'y'.repeat(75)];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
  for (let k = 0; k < 20_000; k++) {
    let text = '';
    for (let j = next(40); j > 0; j--) text += pieces[next(pieces.length)];
    agreesWithLibqp(text);
  }
});

test('quoted-printable: decodes to the CRLF text, lines of at most 76, no UTF-8 sequence split, line-end blanks escaped', () => {
  const samples = [
    'plain ascii '.repeat(50_000),
    `Grüße aus Köln — ünïcödé ${'€😀'.repeat(30_000)}\nsecond line \r\nthird\t\r\n= equals = ${'x'.repeat(200)}`,
    '\r\n'.repeat(10) + 'trailing blank ',
  ];
  for (const sample of samples) {
    const encoded = quotedPrintable(sample);
    assert.ok(libqp.decode(encoded.toString('latin1')).equals(Buffer.from(toCrlf(sample), 'utf8')));
    for (const line of encoded.toString('latin1').split('\r\n')) {
      assert.ok(line.length <= 76, `line of ${line.length}`);
      assert.ok(/^[\x21-\x7e\t ]*$/.test(line), 'printable ASCII only');
      assert.not.ok(/[ \t]$/.test(line), 'no blank at the end of a line');
      // a soft-broken line ends on a whole UTF-8 sequence: its decoded bytes are valid UTF-8
      const decoded = libqp.decode(line.replace(/=$/, ''));
      assert.is(Buffer.from(decoded.toString('utf8'), 'utf8').equals(decoded), true);
    }
  }
});

test.run();
