// SMTP submission keeps the API's bounds: a project's request rate, shared with its HTTP requests,
// and the turns of large requests (over 1 MB), shared with large /v1/send bodies: one per project
// at a time, two in the daemon, a bounded waiting room past which a submission is refused 451.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { within } from './helpers/eventually.js';
import { holdLargeSends } from './helpers/held-sends.js';
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
const MB = 1024 * 1024;

/** A message over 1 MB (its attachment): it needs a large request's turn. */
const large = (from: string, to: string, content: Buffer) => ({ from, to, subject: `large to ${to}`, text: 'attached', attachments: [{ filename: 'data.bin', content }] });

/** The attachment of the message the sink got for `rcpt`, once it came. */
async function deliveredAttachment(sinkOf: MailEnv, rcpt: string): Promise<Buffer> {
  const message = await eventually(() => sinkOf.sink.messages.find((m) => m.rcptTo.includes(rcpt)), 15_000, `the message to ${rcpt} at the sink`);
  return (await simpleParser(message.raw)).attachments[0]!.content;
}

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
  // had the refused one been queued, it would have been delivered by now
  await env.idle();
  assert.equal(env.sink.messages.map((m) => m.rcptTo[0]).sort(), ['rate0@rcpt.test', 'rate1@rcpt.test', 'rate2@rcpt.test', 'rate4@rcpt.test']);
  await nextMinute();
  assert.match(await submit(d, message(5)), 'Queued as');
});

test("a large submission takes its turn with the project's large /v1/send requests: past their waiting room it is refused 451, another project's goes meanwhile, and once they end it is sent whole", async () => {
  // no request rate here: the project's large requests fill its turn and waiting room
  const heavy = await startMailEnv({ config: { submission: { host: '127.0.0.1', port: 0 } }, sinkDomains: ['rcpt.test'], senders: ['acme.test'] });
  try {
    const d = heavy.daemon;
    const other = d.createProject('turns-other');
    await heavy.verifySender('other.test', other);
    // one send holds the project's turn, eight wait (the project's waiting room), the tenth is refused
    const pile = holdLargeSends(d, d.project.secretKey, 10);
    try {
      await eventually((saw) => (saw(pile.statuses), pile.statuses.length > 0), 15_000, 'the send past the waiting room refused');
      assert.equal(pile.statuses, [429], 'one turn and eight waiting places: the tenth is refused');
      const mine = randomBytes(MB + 64 * 1024);
      const turnedAway = await refusal(d, large('hello@acme.test', 'mine@rcpt.test', mine));
      assert.is(turnedAway.responseCode, 451, turnedAway.response);
      assert.match(turnedAway.response ?? '', '4.7.0 Too many large requests are in progress');
      // the daemon's other turn is free for another project
      const theirs = randomBytes(MB + 64 * 1024);
      assert.match(await submit(d, large('hello@other.test', 'theirs@rcpt.test', theirs), other.secretKey), 'Queued as');
      assert.is(sha(await deliveredAttachment(heavy, 'theirs@rcpt.test')), sha(theirs), "the other project's arrived whole");
      assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200, 'the API answers meanwhile');
      assert.equal(pile.statuses, [429], 'the held sends still hold the turn and the waiting room');
      pile.release();
      // the sends hung up: each ends in its turn, and the project's large submission is taken
      const accepted = await eventually(
        async (saw) => {
          const turn = await submit(d, large('hello@acme.test', 'mine@rcpt.test', mine)).catch((err: { response?: string }) => (saw(err.response), null));
          return turn;
        },
        15_000,
        'the large submission accepted once the held sends ended',
      );
      assert.match(accepted, 'Queued as');
      assert.is(sha(await deliveredAttachment(heavy, 'mine@rcpt.test')), sha(mine), 'it arrived whole');
    } finally {
      pile.release();
    }
  } finally {
    await heavy.close();
  }
});

test('the API answers while large submissions are read, parsed and composed; both arrive whole', async () => {
  await nextMinute();
  const d = env.daemon;
  const files = [randomBytes(3 * MB), randomBytes(3 * MB)];
  // handed to the socket in slices: a slice's end says the daemon has (nearly) all of that message
  const inSlices = (message: Buffer) => Readable.from(Array.from({ length: Math.ceil(message.length / (64 * 1024)) }, (_, i) => message.subarray(i * 64 * 1024, (i + 1) * 64 * 1024)));
  const raws = await Promise.all(files.map((content, i) => new MailComposer(large('hello@acme.test', `large${i}@rcpt.test`, content)).compile().build()));
  const streams = raws.map(inSlices);
  const handedOver = Promise.all(streams.map((s) => new Promise((resolve) => s.once('end', resolve))));
  const replies = Promise.all(streams.map((raw, i) => submit(d, { envelope: { from: 'hello@acme.test', to: [`large${i}@rcpt.test`] }, raw })));
  await handedOver;
  // from here until both replies the daemon reads, parses and composes them: /health, asked one after the other, answers meanwhile
  let replied = false;
  const probes = (async () => {
    let answered = 0;
    while (!replied) {
      assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
      if (!replied) answered++;
    }
    return answered;
  })();
  try {
    (await within(replies, 30_000, 'the replies to both large submissions')).forEach((reply) => assert.match(reply, 'Queued as'));
  } finally {
    replied = true;
  }
  const answered = await probes;
  assert.ok(answered > 0, 'the API answered while both messages were in the daemon, before their replies');
  for (const [i, content] of files.entries()) assert.is(sha(await deliveredAttachment(env, `large${i}@rcpt.test`)), sha(content));
});

test.run();
