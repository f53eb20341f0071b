// Large /v1/send requests: bounded per request, parsed and composed off the main thread, in turns.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['example.test'], senders: ['acme.test'] });
  d = env.daemon;
});
test.after(async () => env.close());

const MB = 1024 * 1024;
const file = (bytes: number, fill = 7) => ({ filename: 'big.bin', content: Buffer.alloc(bytes, fill).toString('base64'), contentType: 'application/octet-stream' });
const lookup = async (emails: string[]) => (await d.request('POST', '/contacts/lookup', { emails })).body.found as unknown[];

test('the messages of one request are at most 40 MB together: refused before any composing, nothing written', async () => {
  const to = Array.from({ length: 5 }, (_, i) => `fanout${i}@example.test`);
  const r = await d.request('POST', '/v1/send', { to, subject: 's', body: '<p>x</p>', from: 'hello@acme.test', attachments: [file(9 * MB)] });
  assert.is(r.status, 422, JSON.stringify(r.body).slice(0, 300));
  assert.is(r.body.error.errors[0].field, 'body');
  assert.is(r.body.error.errors[0].code, 'too_big');
  assert.match(r.body.error.errors[0].message, '40 MB per request');
  assert.equal(await lookup(to), [], 'no contact was written');
});

/** POSTs `chunks` to /v1/send without a Content-Length (chunked), or declaring `declared`; answers status and body. */
function post(chunks: Buffer[], declared?: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: `Bearer ${d.project.secretKey}` };
    if (declared !== undefined) headers['Content-Length'] = String(declared);
    const req = request(`${d.url}/v1/send`, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString() || 'null') }));
    });
    // the daemon may answer and close before the whole body is written
    req.on('error', reject);
    let i = 0;
    const next = () => {
      while (i < chunks.length) if (!req.write(chunks[i++]!)) return void req.once('drain', next);
      req.end();
    };
    next();
  });
}

test('a /v1/send body is at most 40 MB, declared or chunked (400); a chunked heavy body is read and sent', async () => {
  const declared = await post([Buffer.from('{}')], 40 * MB + 1);
  assert.is(declared.status, 400);
  assert.is(declared.body.error.code, 'BAD_REQUEST');
  assert.match(declared.body.error.message, 'larger than 40 MB');
  const chunk = Buffer.alloc(MB, 0x20);
  const growing = await post([Buffer.from('{"to":"grow@example.test","body":"'), ...Array.from({ length: 41 }, () => chunk)]).catch((err: Error) => ({ status: 0, body: err.message }));
  // answered 400 and closed; a client still writing may see the close (a reset) before reading the answer
  assert.ok(growing.status === 400 || growing.status === 0, `refused, got ${growing.status}`);
  if (growing.status === 400) assert.is(growing.body.error.code, 'BAD_REQUEST');
  const json = Buffer.from(JSON.stringify({ to: 'chunked@example.test', subject: 's', body: `<p>${'y'.repeat(2 * MB)}</p>`, from: 'hello@acme.test' }));
  const chunked = await post([json.subarray(0, MB), json.subarray(MB)]);
  assert.is(chunked.status, 200, JSON.stringify(chunked.body).slice(0, 300));
  await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes('chunked@example.test')), 15_000, 'the chunked send delivered');
  assert.equal(await lookup(['grow@example.test']), [], 'nothing written for the refused body');
});

test('a heavy body is parsed off the main thread with the same answers: malformed JSON 400, schema 422, rules 422', async () => {
  const padding = '<p>' + 'x'.repeat(2 * MB) + '</p>';
  const broken = await d.request('POST', '/v1/send', undefined, { raw: `{"to":"a@example.test","body":"${padding}"` });
  assert.is(broken.status, 400);
  assert.is(broken.body.error.code, 'BAD_REQUEST');
  const invalid = await d.request('POST', '/v1/send', { to: 'not-an-email', subject: 's', body: padding, from: 'hello@acme.test' });
  assert.is(invalid.status, 422);
  assert.equal(invalid.body.error.errors.map((e: { field: string }) => e.field), ['to']);
  const badFile = await d.request('POST', '/v1/send', {
    to: 'a@example.test',
    subject: 's',
    body: padding,
    from: 'hello@acme.test',
    attachments: [{ ...file(10), contentType: 'multipart/mixed; boundary=x' }],
  });
  assert.is(badFile.status, 422);
  assert.is(badFile.body.error.errors[0].field, 'attachments.0.contentType');
  assert.equal(await lookup(['a@example.test']), []);
});

test('a heavy send to several recipients is personalised per recipient and delivered intact', async () => {
  const html = `<html><head><style>p{}</style></head><body><h1>Hi {{name}}</h1><p>${'lorem ipsum '.repeat(100_000)}</p><a href="https://acme.test/x">go</a></body></html>`;
  const attachment = file(3 * MB, 42);
  const r = await d.request('POST', '/v1/send', {
    to: [
      { email: 'heavy1@example.test', name: 'Ann' },
      { email: 'heavy2@example.test', name: 'Bob' },
    ],
    subject: 'For {{name}}',
    body: html,
    from: 'hello@acme.test',
    attachments: [attachment],
  });
  assert.is(r.status, 200, JSON.stringify(r.body).slice(0, 300));
  for (const [rcpt, name] of [
    ['heavy1@example.test', 'Ann'],
    ['heavy2@example.test', 'Bob'],
  ] as const) {
    const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes(rcpt)), 20_000, rcpt);
    const mail = await simpleParser(message.raw);
    assert.is(mail.subject, `For ${name}`);
    assert.match(String(mail.html), `<h1>Hi ${name}</h1>`);
    assert.match(mail.text ?? '', `Hi ${name}`, 'a text part, converted without html-to-text for a page this large');
    assert.not.match(mail.text ?? '', 'p{}', 'style content is not text');
    assert.is(mail.attachments[0]!.content.length, 3 * MB);
    assert.ok(mail.attachments[0]!.content.every((b) => b === 42));
  }
});

test('messages too large to read ahead are read when delivery has room for them, signed and delivered intact', async () => {
  // random bytes do not deflate: each message is stored well above the read-ahead size
  const contents = [randomBytes(MB), randomBytes(MB), randomBytes(MB)];
  for (const [i, content] of contents.entries()) {
    const r = await d.request('POST', '/v1/send', {
      to: `large${i}@example.test`,
      subject: `Large ${i}`,
      body: '<p>attached</p>',
      from: 'hello@acme.test',
      attachments: [{ filename: 'random.bin', content: content.toString('base64'), contentType: 'application/octet-stream' }],
    });
    assert.is(r.status, 200, JSON.stringify(r.body).slice(0, 300));
  }
  for (const [i, content] of contents.entries()) {
    const message = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes(`large${i}@example.test`)), 20_000, `large${i}`);
    assert.ok((await verifyDkim(message.raw, env.dns.address)).pass, 'the signature covers the body as sent in slices');
    const mail = await simpleParser(message.raw);
    assert.ok(mail.attachments[0]!.content.equals(content));
  }
});

test('heavy requests of one project take turns; the API keeps answering meanwhile', async () => {
  const body = '<p>' + 'y'.repeat(3 * MB) + '</p>';
  const sends = Array.from({ length: 4 }, (_, i) =>
    d.request('POST', '/v1/send', { to: `turn${i}@example.test`, subject: 's', body, from: 'hello@acme.test' }),
  );
  const health = await d.request('GET', '/health', undefined, { key: null });
  assert.is(health.status, 200);
  const answers = await Promise.all(sends);
  assert.equal(
    answers.map((a) => a.status),
    [200, 200, 200, 200],
  );
});

test.run();
