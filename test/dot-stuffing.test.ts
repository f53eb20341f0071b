import SMTPConnection from 'nodemailer/lib/smtp-connection';
import DataStream from 'nodemailer/lib/smtp-connection/data-stream';
import type { Transform } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canSpeedUpData, fastDataStep } from '../src/nodemailer-internals.js';

type Stream = Transform & { inByteCount: number; outByteCount: number };

/** The bytes a DataStream writes for these chunks, its counts, and how many chunks the fast step left to nodemailer's loop. */
async function escaped(chunks: Buffer[], fast: boolean): Promise<{ out: string; counts: [number, number]; ownSteps: number }> {
  const stream = new DataStream() as Stream;
  const own = stream._transform;
  let ownSteps = 0;
  stream._transform = function (this: Stream, ...args: Parameters<Transform['_transform']>) {
    ownSteps++;
    return own.apply(this, args);
  };
  if (fast) stream._transform = fastDataStep(stream._transform as never) as never;
  const out: Buffer[] = [];
  stream.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return { out: Buffer.concat(out).toString('latin1'), counts: [stream.inByteCount, stream.outByteCount], ownSteps };
}

/** A pseudo-random generator with a seed, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

test('the fast step writes what nodemailer writes, chunk boundaries anywhere, line ends of any kind', async () => {
  const pieces = ['\r\n', '\r\n.', '.', 'a', 'text ', '\r', '\n', '..', '\r\n..\r\n'];
  for (let seed = 1; seed <= 3000; seed++) {
    const next = random(seed);
    const crlfOnly = seed % 2 === 0; // half the cases as signed messages are, the fast path taken throughout
    const choices = crlfOnly ? pieces.filter((p) => !/\r(?!\n)|(?<!\r)\n/.test(p)) : pieces;
    const text = Array.from({ length: 1 + Math.floor(next() * 40) }, () => choices[Math.floor(next() * choices.length)]).join('');
    const bytes = Buffer.from(text, 'latin1');
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + Math.floor(next() * 12);
      chunks.push(bytes.subarray(at, at + size));
      at += size;
    }
    const [own, fast] = await Promise.all([escaped(chunks, false), escaped(chunks, true)]);
    assert.equal([fast.out, fast.counts], [own.out, own.counts], `seed ${seed}: ${JSON.stringify(text)}`);
    if (crlfOnly) assert.is(fast.ownSteps, 0, `seed ${seed}: CRLF only, yet nodemailer's loop ran`);
  }
});

test('a signed message: dots at line starts doubled, the rest untouched, the end marked', async () => {
  const message = Buffer.from('Subject: x\r\n\r\n.first\r\nmiddle . dot\r\n..two\r\n.\r\nend\r\n', 'latin1');
  const fast = await escaped([message], true);
  assert.is(fast.out, (await escaped([message], false)).out);
  assert.is(fast.out, 'Subject: x\r\n\r\n..first\r\nmiddle . dot\r\n...two\r\n..\r\nend\r\n.\r\n');
  assert.is(fast.ownSteps, 0);
});

test('this nodemailer makes its DATA streams where the fast step goes in', () => {
  assert.ok(canSpeedUpData(new SMTPConnection({ host: '127.0.0.1', port: 1 })));
});

test.run();
