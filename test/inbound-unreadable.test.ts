import Database from 'better-sqlite3';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_HEADER_BYTES, MAX_HEADER_LINES } from '../src/inbound/header-section.js';
import { storeFile } from '../src/store/db.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { smtpCode as smtpReply } from './helpers/smtp-client.js';

// Anything answered 250 is recorded: a message the parser cannot read becomes email.received with
// hasContent false and the reason. What would cost the parser or the authentication checks too
// much (an oversized header section) is refused at DATA with a 5xx instead.

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('inbox.test');
});
test.after(async () => env.close());

const smtpCode = (to: string, raw: string) => smtpReply(env.daemon.smtpPort, { from: 'sender@client.test', to: [to] }, raw);

const HEAD = 'From: sender@client.test\r\nSubject: odd\r\nMIME-Version: 1.0\r\n';

/** Multiparts nested `depth` deep, one text part at the bottom. */
function nestedMultipart(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
    close = `\r\n--b${i}--\r\n` + close;
  }
  return `${HEAD}${open}Content-Type: text/plain\r\n\r\nbottom${close}`;
}

/** One multipart with `count` sibling parts. */
function manyParts(count: number): string {
  const parts = Array.from({ length: count }, (_, i) => `--x\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('');
  return `${HEAD}Content-Type: multipart/mixed; boundary="x"\r\n\r\n${parts}--x--\r\n`;
}

/** A small top-level head, then a part whose own header block is over the parser's limit. */
const hugePartHead = () =>
  `${HEAD}Content-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\nX-Big: ${'y'.repeat(MAX_HEADER_BYTES + 10)}\r\n\r\nhidden\r\n--x--\r\n`;

const headerLines = (count: number, line = (i: number) => `X-H${i}: v${i}`) => Array.from({ length: count }, (_, i) => line(i) + '\r\n').join('');

async function receivedAt(to: string) {
  return eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.to === to), 15000, `email.received for ${to}`);
}

test('messages the parser cannot read are answered 250 and recorded: email.received with hasContent false and a reason', async () => {
  const cases: [string, string][] = [
    ['deep@inbox.test', nestedMultipart(3000)],
    ['wide@inbox.test', manyParts(1500)],
    ['bigpart@inbox.test', hugePartHead()],
  ];
  for (const [to, raw] of cases) assert.is(await smtpCode(to, raw), 250, to);
  for (const [to] of cases) {
    const event = await receivedAt(to);
    assert.is(event.data.hasContent, false, to);
    assert.match(event.data.reason, /could not be parsed/, to);
    assert.is(event.data.from, 'sender@client.test', 'the envelope sender stands in for the unread From');
    assert.type(event.data.processingTimeMillis, 'number');
  }
  const readable = await smtpCode('fine@inbox.test', `${HEAD}${headerLines(MAX_HEADER_LINES - 10)}\r\nhello`);
  assert.is(readable, 250);
  const fine = await receivedAt('fine@inbox.test');
  assert.is(fine.data.hasContent, true);
  assert.is(fine.data.reason, undefined);
});

test('a header section over the limits is refused at DATA with a 5xx, and nothing is stored', async () => {
  const before = (await eventsNamed(env.daemon, 'email.received')).length;
  const refusals: [string, string][] = [
    ['100,000 header fields', `${HEAD}${headerLines(100_000)}\r\nbody\r\n`],
    [`${MAX_HEADER_LINES + 1} tiny header fields`, `${HEAD}${headerLines(MAX_HEADER_LINES + 1, () => 'A:')}\r\nbody\r\n`],
    ['one header line over 1 MB', `${HEAD}X-Long: ${'z'.repeat(MAX_HEADER_BYTES)}\r\n\r\nbody\r\n`],
    ['folded over 1 MB', `${HEAD}X-Folded: a\r\n${headerLines(2000, () => ' ' + 'f'.repeat(600))}\r\nbody\r\n`],
    ['no body and no end to the head', `${HEAD}${headerLines(60_000)}`],
  ];
  for (const [what, raw] of refusals) {
    const code = await smtpCode('refused@inbox.test', raw);
    assert.ok(code >= 500 && code < 600, `${what}: ${code}`);
  }
  assert.is((await eventsNamed(env.daemon, 'email.received')).length, before);
});

test('every message answered 250 ends processed, to the bounce domain as well', async () => {
  for (const raw of [nestedMultipart(3000), manyParts(1500), hugePartHead()]) {
    assert.is(await smtpCode('someone@bounces.inbox.test', raw), 250);
  }
  const db = new Database(storeFile(join(env.daemon.dataDir, 'store')), { readonly: true });
  try {
    await eventually((saw) => {
      const row = db.prepare('SELECT COUNT(*) AS open FROM inbound_messages WHERE processed_at IS NULL').get() as { open: number };
      saw({ unprocessed: row.open });
      return row.open === 0;
    }, 15000, 'every inbound message processed');
    const total = db.prepare('SELECT COUNT(*) AS n FROM inbound_messages').get() as { n: number };
    assert.ok(total.n >= 7, `${total.n} messages stored`);
  } finally {
    db.close();
  }
});

test.run();
