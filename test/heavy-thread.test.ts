// What the request limits accept, the heavy thread processes; and a task that exhausts it anyway
// fails alone, for good, while the requests waiting for the thread go to the one started in its place.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys } from './helpers/daemon.js';
import { ADMIN, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { refusal, submit } from './helpers/submission.js';

const MB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A daemon with submission on, its project sending from acme.test and another project from other.test. */
async function environment(config: Record<string, unknown> = {}): Promise<{ env: MailEnv; other: Keys }> {
  const env = await startMailEnv({ config: { submission: { host: '127.0.0.1', port: 0 }, ...config }, sinkDomains: ['rcpt.test'], senders: ['acme.test'] });
  const other = env.daemon.createProject('other');
  await env.verifySender('other.test', other);
  return { env, other };
}

/** Another project's heavy /v1/send (its body alone is over 1 MB: parsed and composed on the heavy thread). */
const heavySend = (env: MailEnv, other: Keys, to: string, bytes: number) =>
  env.daemon.request('POST', '/v1/send', { to, from: 'hello@other.test', subject: 'heavy', body: `<p>${'y'.repeat(bytes)}</p>` }, { key: other.secretKey });

const raw = (message: ConstructorParameters<typeof MailComposer>[0]) => new MailComposer(message).compile().build();

test('a 38 MB submission (HTML and a 10 MB attachment) is sent whole while another project sends 3 MB through /v1/send', async () => {
  const { env, other } = await environment();
  try {
    const attachment = randomBytes(10 * MB - 64 * 1024);
    // a million empty blocks: a text part of nothing but line breaks (so the composed message stays
    // under 40 MB too), which the text conversion used to pay for per block
    const html = `<html><body><h1>Report</h1>${'<div class="c"></div>'.repeat(Math.floor((23 * MB) / 21))}</body></html>`;
    const message = await raw({ from: 'hello@acme.test', to: 'big@rcpt.test', subject: 'big report', html, attachments: [{ filename: 'data.bin', content: attachment }] });
    assert.ok(message.length > 37 * MB && message.length < 40 * MB, `the message is ${(message.length / MB).toFixed(1)} MB`);
    // the other project's send starts once the submission's last bytes are handed to its socket:
    // the daemon is reading or parsing the 38 MB then
    const slices = Readable.from(Array.from({ length: Math.ceil(message.length / (64 * 1024)) }, (_, i) => message.subarray(i * 64 * 1024, (i + 1) * 64 * 1024)));
    const handedOver = new Promise<void>((resolve) => slices.once('end', resolve));
    const [submitted, sent] = await Promise.all([
      submit(env.daemon, { envelope: { from: 'hello@acme.test', to: ['big@rcpt.test'] }, raw: slices }),
      handedOver.then(() => heavySend(env, other, 'concurrent@rcpt.test', 3 * MB)),
    ]);
    assert.match(submitted, /^250 .*Queued as/);
    assert.is(sent.status, 200, JSON.stringify(sent.body).slice(0, 300));
    const delivered = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('big@rcpt.test')), 30_000, 'the 38 MB message delivered');
    const mail = await simpleParser(delivered.raw);
    assert.is(sha(mail.attachments[0]!.content), sha(attachment), 'the attachment arrived whole');
    assert.match(String(mail.html), '<h1>Report</h1>');
    await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes('concurrent@rcpt.test')), 30_000, 'the concurrent send delivered');
  } finally {
    await env.close();
  }
});

test('text of more than a million lines is refused for good (550), however its part is encoded; the heavy thread is never asked', async () => {
  const { env } = await environment();
  try {
    const head = (encoding: string) => `From: hello@acme.test\r\nTo: big@rcpt.test\r\nSubject: lines\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n`;
    const lines = 1_000_001;
    const bodies = {
      '7bit': 'x\r\n'.repeat(lines),
      'quoted-printable': 'x=0A'.repeat(lines).replace(/(.{72})/g, '$1=\r\n'),
      base64: Buffer.from('\n'.repeat(lines)).toString('base64').replace(/(.{76})/g, '$1\r\n'),
    };
    for (const [encoding, body] of Object.entries(bodies)) {
      const refused = await refusal(env.daemon, { envelope: { from: 'hello@acme.test', to: ['big@rcpt.test'] }, raw: head(encoding) + body });
      assert.is(refused.responseCode, 550, `${encoding}: ${refused.response}`);
      assert.match(refused.response ?? '', 'At most 1000000 lines of text per message');
    }
    // soft line breaks are not lines: the same text in lines of 80 characters, folded by quoted-printable, goes through
    const folded = ('y'.repeat(80) + '\r\n').repeat(30_000).replace(/(y{72})/g, '$1=\r\n');
    assert.match(await submit(env.daemon, { envelope: { from: 'hello@acme.test', to: ['big@rcpt.test'] }, raw: head('quoted-printable') + folded }), 'Queued as');
    assert.not.ok(env.daemon.logs().some((line) => line.msg === 'worker thread ended'), env.daemon.stderr().slice(-2000));
  } finally {
    await env.close();
  }
});

test('bodies of millions of tags, line breaks or entities are sent (12 MB each); more than 10,000 placeholders or links are refused (422)', async () => {
  const { env } = await environment();
  try {
    const send = (to: string, body: string) => env.daemon.request('POST', '/v1/send', { to, from: 'hello@acme.test', subject: 'shape', body });
    // each of these took the heavy thread past its heap (at 38 MB, past 512 MB; the <br>s aborted the daemon)
    const shapes = { tags: '<br>'.repeat(3 * MB), breaks: `<p>a</p>${'\n'.repeat(6 * MB)}`, entities: '&amp;'.repeat(2.4 * MB) };
    for (const [name, body] of Object.entries(shapes)) {
      const r = await send(`${name}@rcpt.test`, body);
      assert.is(r.status, 200, `${name}: ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    const placeholders = await send('p@rcpt.test', '{{name}} '.repeat(10_001));
    assert.is(placeholders.status, 422);
    assert.match(placeholders.body.error.errors[0].message, 'At most 10000 placeholders');
    const links = await send('l@rcpt.test', '<a href="https://acme.test/">x</a>'.repeat(10_001));
    assert.is(links.status, 422);
    assert.match(links.body.error.errors[0].message, 'At most 10000 links');
    assert.is((await send('ok@rcpt.test', `${'{{name}} '.repeat(10_000)}${'<a href="https://acme.test/">x</a>'.repeat(10_000)}`)).status, 200, 'up to the bounds is fine');
  } finally {
    await env.close();
  }
});

test('a task that exhausts the heavy thread fails alone and for good (413); a send and a submission waiting for the thread are served by its replacement', async () => {
  const { env, other } = await environment({ threads: { heavyHeapMb: 32 } });
  try {
    // holds the heavy thread 1.5 s, then fills its heap until the thread ends
    const exhausting = env.daemon.request('POST', '/_test/heavy-thread', { afterMs: 1500 }, { key: ADMIN });
    // both over 1 MB: parsed on the heavy thread, so they wait in its pool behind that task
    const waiting = [
      heavySend(env, other, 'waiting@rcpt.test', 1.5 * MB),
      submit(env.daemon, { from: 'hello@acme.test', to: 'submitted@rcpt.test', subject: 'waiting', html: `<p>${'z'.repeat(1.5 * MB)}</p>` }),
    ] as const;
    const exhausted = await exhausting;
    assert.is(exhausted.status, 413, JSON.stringify(exhausted.body).slice(0, 300));
    assert.is(exhausted.body.error.code, 'PAYLOAD_TOO_LARGE');
    const [sent, submitted] = await Promise.all(waiting);
    assert.is(sent.status, 200, JSON.stringify(sent.body).slice(0, 300));
    assert.match(submitted, /^250 .*Queued as/);
    assert.ok(
      env.daemon.logs().some((line) => line.msg === 'worker thread ended' && /memory limit/.test(String(line.reason))),
      `a log line names the death: ${env.daemon.stderr().slice(-2000)}`,
    );
    for (const to of ['waiting@rcpt.test', 'submitted@rcpt.test']) {
      await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes(to)), 20_000, `${to} delivered`);
    }
    // and again: each death takes its own task only, the next thread serves what follows
    const again = await env.daemon.request('POST', '/_test/heavy-thread', { afterMs: 0 }, { key: ADMIN });
    assert.is(again.status, 413);
    assert.is((await heavySend(env, other, 'after@rcpt.test', 1.5 * MB)).status, 200);
  } finally {
    await env.close();
  }
});

test.run();
