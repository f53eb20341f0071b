// Whatever an SMTP client sends to a verified domain, the daemon reads it off the event loop and
// within bounds: it is read on the heavy thread (never on the compose threads that serve every
// project's sends), /health and another project's API keep answering, the daemon's memory stays
// bounded, and a message past the bounds is recorded unread with the reason. Each message below is
// within the listener's limits (40 MB, the header section checked at DATA). How long the probes
// waited meanwhile is a figure of `npm run bench inbound-heavy`, not a bound here: a loaded machine
// stretches it.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_RECEIVED_BODY } from '../src/inbound/content.js';
import { MAX_DKIM_SIGNATURES } from '../src/inbound/header-section.js';
import { MAX_MESSAGE_LINES } from '../src/mime/text-lines.js';
import type { Keys } from './helpers/daemon.js';
import { blankLines, hugePartHeaders, largeHtml, MB, nestedMultiparts, relaxedDkimLines, relaxedSignature, tinyParts } from './helpers/heavy-mail.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { answeredMeanwhile, assertAnsweredMeanwhile } from './helpers/meanwhile.js';
import { smtpCode } from './helpers/smtp-client.js';
import { servedSince, threadsServed } from './helpers/test-hooks.js';

/**
 * What the daemon's peak RSS may rise by for one message: the heavy thread's heap
 * (threads.heavyHeapMb, 256 MB) and a few copies of the message's bytes (received, stored, read
 * back, on the thread). Reading on the main thread took 1.1-2.0 GB for these messages.
 */
const MEMORY_BOUND = 512 * MB;

/** How long a message may take to be received: the DKIM one costs seconds of CPU, 80 s at a load of 30 on 2 cores. */
const RECEIVED_WITHIN_MS = 180_000;

let env: MailEnv;
let other: Keys;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('inbox.test');
  other = env.daemon.createProject('other');
  await env.verifySender('other.test', other);
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

const rss = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/**
 * Sends `raw` to `local`@inbox.test and waits for its email.received, while /health and the other
 * project's /v1/track are asked in turn; answers the event once it has checked that the heavy
 * thread read the message (the compose threads none), each probe was answered before it was
 * received, and how far the daemon's peak RSS rose (VmHWM reset through clear_refs).
 */
async function received(local: string, raw: Buffer) {
  const pid = env.daemon.pid();
  const threadsBefore = await threadsServed(env.daemon);
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = rss(pid, 'VmRSS');
  const to = `${local}@inbox.test`;
  const sent = (async () => {
    const code = await smtpCode(env.daemon.smtpPort, { from: 'stranger@client.test', to: [to] }, raw);
    assert.is(code, 250, `${local}: answered 250`);
    return eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.recipients[0] === to), RECEIVED_WITHIN_MS, `email.received for ${to}`);
  })();
  const run = await answeredMeanwhile(sent, [
    { what: 'GET /health', ask: () => env.daemon.request('GET', '/health', undefined, { key: null }) },
    { what: "another project's /v1/track", ask: () => env.daemon.request('POST', '/v1/track', { email: 'probe@other.test', event: 'probe' }, { key: other.publicKey }) },
  ]);
  const growth = rss(pid, 'VmHWM') - before;
  const read = servedSince(threadsBefore, await threadsServed(env.daemon), 'inspectInbound');
  assert.equal(read, { compose: 0, heavy: 1 }, `${local}: read once, on the heavy thread`);
  assertAnsweredMeanwhile(local, run.meanwhile);
  assert.ok(growth < MEMORY_BOUND, `${local}: the daemon's peak RSS rose by ${(growth / MB).toFixed(0)} MB`);
  return run.value.data;
}

test('a 38 MB message of blank lines is recorded unread with the reason; the API and its memory stay within bounds', async () => {
  const data = await received('blank', blankLines('blank', 38 * MB));
  assert.is(data.hasContent, false);
  assert.is(data.reason, `The message has more than ${MAX_MESSAGE_LINES} lines`);
  assert.is(data.from, 'stranger@client.test', 'the envelope sender stands in for the unread From');
  assert.is(data.dkimVerdict, 'PROCESSING_FAILED');
});

test('variants: many tiny parts, parts past the parser, deep nesting, huge part headers, a costly DKIM signature', async () => {
  const tiny = await received('tiny', tinyParts('tiny', 999, 20 * MB));
  assert.is(tiny.hasContent, false);
  assert.match(tiny.reason, 'lines');

  const wide = await received('wide', tinyParts('wide', 5000, 2 * MB));
  assert.is(wide.hasContent, false);
  assert.match(wide.reason, 'could not be parsed');

  const deep = await received('deep', nestedMultiparts('deep', 100_000));
  assert.is(deep.hasContent, false);
  assert.match(deep.reason, 'could not be parsed');

  // within every bound: read whole, on the heavy thread
  const headers = await received('headers', hugePartHeaders('headers', 12 * MB));
  assert.is(headers.hasContent, true);
  assert.is(headers.subject, 'headers');

  // just under the line bound, three body hashes: seconds of mailauth's canonicalisation, which the event loop once paid
  const dkim = await received('dkim', relaxedDkimLines('dkim', MAX_MESSAGE_LINES - 1000, 3));
  assert.is(dkim.hasContent, true);
  assert.is(dkim.dkimVerdict, 'FAIL', 'the made-up signature does not verify');
});

test("a small message asking for many DKIM hashes is read on the heavy thread: another project's sends keep the compose thread", async () => {
  // 1 MB of short lines under 10 signatures, each a hash of its own: ~2 s of mailauth's canonicalisation
  const raw = relaxedDkimLines('hashes', 249_000, 10);
  assert.ok(raw.length <= MB, `${raw.length} bytes: a compose thread's size`);
  const before = await threadsServed(env.daemon);
  let sends = 0;
  let done = false;
  const sending = (async () => {
    for (let i = 0; !done; i++) {
      const r = await env.daemon.request('POST', '/v1/send', { to: `s${i}@rcpt.test`, from: 'hi@other.test', subject: 's', body: '<p>b</p>' }, { key: other.secretKey });
      assert.is(r.status, 200, JSON.stringify(r.body));
      sends++;
    }
  })();
  // received() checks the message went to the heavy thread, once
  const data = await received('hashes', raw).finally(() => (done = true));
  await sending;
  assert.is(data.dkimVerdict, 'FAIL');
  assert.ok(sends > 0, 'the other project sent while the message was read');
  const after = await threadsServed(env.daemon);
  // on a compose thread the message would have held every send behind it for seconds (one such thread on 2 cores)
  assert.equal(servedSince(before, after, 'compose'), { compose: sends, heavy: 0 }, "each of the other project's sends was composed on the compose threads");
});

test('a 38 MB HTML message is read whole; its event carries the first MB of the body and says so', async () => {
  const data = await received('html', largeHtml('html', 38 * MB));
  assert.is(data.hasContent, true);
  assert.is(data.subject, 'html');
  assert.is(data.body.length, MAX_RECEIVED_BODY);
  assert.ok(data.body.startsWith('<html><body><p>word '));
  assert.is(data.bodyTruncated, true);
});

test('ordinary mail is read as before: DKIM, SPF and DMARC pass, the body is whole', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  env.dns.set('s1._domainkey.aligned.test', 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
  env.dns.set('aligned.test', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  env.dns.set('_dmarc.aligned.test', 'TXT', ['v=DMARC1; p=reject']);
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: env.daemon.smtpPort,
    secure: false,
    ignoreTLS: true,
    dkim: { domainName: 'aligned.test', keySelector: 's1', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
  });
  await transport.sendMail({ from: 'Ann <ann@aligned.test>', to: 'ordinary@inbox.test', subject: 'Hello', html: '<p>Hi there</p>', text: 'Hi there' });
  transport.close();
  const event = await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.from === 'ann@aligned.test'), 8000, 'the signed message');
  assert.equal(
    [event.data.dkimVerdict, event.data.spfVerdict, event.data.dmarcVerdict, event.data.body, event.data.bodyTruncated],
    ['PASS', 'PASS', 'PASS', '<p>Hi there</p>', undefined],
  );
});

test(`more than ${MAX_DKIM_SIGNATURES} DKIM signatures are refused at DATA; ${MAX_DKIM_SIGNATURES} are taken`, async () => {
  const signed = (count: number) => {
    const fields = Array.from({ length: count }, (_, i) => relaxedSignature(`k${i}`)).join('');
    return `${fields}From: stranger@client.test\r\nSubject: signatures\r\n\r\nhello\r\n`;
  };
  const send = (raw: string) => smtpCode(env.daemon.smtpPort, { from: 'stranger@client.test', to: ['sigs@inbox.test'] }, raw);
  const refused = await send(signed(MAX_DKIM_SIGNATURES + 1));
  assert.ok(refused >= 500 && refused < 600, `refused with ${refused}`);
  assert.is(await send(signed(MAX_DKIM_SIGNATURES)), 250);
});

test('a DKIM signature that claims more body than there is is received; what mailauth prints for it stays out of the daemon output', async () => {
  // mailauth writes "TOTAL n EXPECTING l" to stdout for it, and the daemon's stdout carries its JSON lines
  const raw = `${relaxedSignature('k1', 'a=rsa-sha256; l=999999999')}From: stranger@client.test\r\nSubject: long claim\r\n\r\nhello\r\n`;
  assert.is(await smtpCode(env.daemon.smtpPort, { from: 'stranger@client.test', to: ['claim@inbox.test'] }, raw), 250);
  const event = await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.subject === 'long claim'), 8000, 'the message');
  assert.is(event.data.dkimVerdict, 'FAIL');
  assert.is((await env.daemon.request('GET', '/health', undefined, { key: null })).status, 200);
});

test.run();
