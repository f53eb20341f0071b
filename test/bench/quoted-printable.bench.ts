// Our quoted-printable encoder beside libqp (nodemailer's codec, encode then wrap at 76), on a
// campaign-sized HTML body and on a 2 MB one: why the project keeps its own.
import libqp from 'libqp';
import { toCrlf } from '../../src/compose/mime/crlf.js';
import { quotedPrintable } from '../../src/compose/mime/quoted-printable.js';
import type { BenchResult } from './load.js';

const LINE = '<p>Hello Zoë, here is your €5 voucher — café & crème. Plain text that goes on for a while.</p>\n';
const BODY = LINE.repeat(500);
const LARGE = BODY.repeat(40);

const encoders = {
  ours: (text: string) => quotedPrintable(text).length,
  libqp: (text: string) => libqp.wrap(libqp.encode(Buffer.from(toCrlf(text), 'utf8')), 76).length,
};

/** Bytes of input encoded per second, over `ms`. */
function rate(encode: (text: string) => number, text: string, ms: number): number {
  let bytes = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    encode(text);
    bytes += text.length;
  }
  return bytes / ((performance.now() - started) / 1000);
}

export async function run(): Promise<BenchResult> {
  const figures: Record<string, string> = {};
  for (const [size, text] of [['50 KB body', BODY], ['2 MB body', LARGE]] as const) {
    for (const encode of Object.values(encoders)) rate(encode, text, 200); // warm-up
    const ours = rate(encoders.ours, text, 1500);
    const theirs = rate(encoders.libqp, text, 1500);
    figures[`${size}: ours MB/s`] = (ours / 1e6).toFixed(1);
    figures[`${size}: libqp MB/s`] = (theirs / 1e6).toFixed(1);
    figures[`${size}: ours / libqp`] = (ours / theirs).toFixed(2);
  }
  return { name: 'quoted-printable: ours beside libqp', figures };
}
