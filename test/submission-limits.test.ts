import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { refusal, submit } from './helpers/submission.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { submission: { host: '127.0.0.1', port: 0 }, rateLimit: { perMinute: 6 } } });
  await env.verifySender('acme.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

/** A minute later: the project's rate window is empty again. */
const nextMinute = () => env.advance(61_000);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test("submissions count against the project's request rate together with its HTTP requests; past it, 451 and nothing sent", async () => {
  const d = env.daemon;
  const other = d.createProject('limits-other');
  await env.verifySender('other.test', other);
  await nextMinute();
  const message = (i: number) => ({ from: 'hello@acme.test', to: `rate${i}@rcpt.test`, subject: `rate ${i}`, text: 'b' });
  for (let i = 0; i < 3; i++) assert.is((await d.request('GET', '/contacts')).status, 200);
  for (let i = 0; i < 3; i++) assert.match(await submit(d, message(i)), 'Queued as');
  const refused = await refusal(d, message(3));
  assert.is(refused.responseCode, 451);
  assert.match(refused.response ?? '', /4\.7\.0 Rate limit of 6 requests per minute/);
  assert.is((await d.request('GET', '/contacts')).status, 429, 'the HTTP requests share the window');
  assert.match(await submit(d, { ...message(4), from: 'hello@other.test' }, other.secretKey), 'Queued as', 'another project has its own');
  await env.sink.waitFor(4, 8000);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(env.sink.messages.map((m) => m.rcptTo[0]).sort(), ['rate0@rcpt.test', 'rate1@rcpt.test', 'rate2@rcpt.test', 'rate4@rcpt.test']);
  await nextMinute();
  assert.match(await submit(d, message(5)), 'Queued as');
});

test('large submissions take turns off the main thread and arrive whole; the API answers meanwhile', async () => {
  await nextMinute();
  const d = env.daemon;
  const files = [randomBytes(3 * 1024 * 1024), randomBytes(3 * 1024 * 1024)];
  const health: number[] = [];
  let sending = true;
  const probe = (async () => {
    while (sending) {
      const started = performance.now();
      assert.is((await d.request('GET', '/health')).status, 200);
      health.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const replies = await Promise.all(
    files.map((content, i) => submit(d, { from: 'hello@acme.test', to: `large${i}@rcpt.test`, subject: `large ${i}`, text: 'attached', attachments: [{ filename: `f${i}.bin`, content }] })),
  );
  sending = false;
  await probe;
  replies.forEach((reply) => assert.match(reply, 'Queued as'));
  const large = () => env.sink.messages.filter((m) => m.rcptTo[0]!.startsWith('large'));
  await eventually(async () => large().length === 2, 15_000, 'both large messages delivered');
  for (const message of large()) {
    const i = Number(/large(\d)@/.exec(message.rcptTo[0]!)![1]);
    const parsed = await simpleParser(message.raw);
    assert.is(sha(parsed.attachments[0]!.content), sha(files[i]!));
  }
  assert.ok(health.length > 0);
});

test.run();
