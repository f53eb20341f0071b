import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

// Generated malformed bodies at /v1/send and /v1/track: each carries at least one definite
// violation ("breaker") and random garbage elsewhere ("noise"). Never a 500, never a crash,
// never a partial write.

const PER_ROUTE = 520;
const PARALLEL = 8;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Body = Record<string, unknown>;

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

type Rng = ReturnType<typeof generator>;

const HUGE = 'x'.repeat(1_100_000);
const WRONG_TYPES: Json[] = [null, true, false, 0, -1, 1e308, '', ' ', [], {}, [[[]]], { a: { b: { c: [1, { d: null }] } } }];
const BAD_EMAILS: Json[] = ['not-an-email', 'a@b', '@example.test', 'a@', 'a b@example.test', 'a@example.test\r\nBcc: x@example.test', 'a'.repeat(400) + '@example.test', '<a@example.test>'];
const LINE_BREAKS = ['\r\n', '\n', '\r', '\r\nBcc: victim@example.test', '\r\n\r\n<html>'];
/** Names and header values refuse NUL as well. */
const CRLF = [...LINE_BREAKS, '\u0000'];
/** 10 MB and one byte, once decoded. */
const OVERSIZED_BASE64 = Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64');
const BROKEN_BASE64 = ['!!!!', 'QUJD=', 'QQ==QQ==', 'Q', 'YWJj\tZGVm', 'data:text/plain;base64,YWJj', 'YW Jj', '====', 'ü'];

function garbage(rng: Rng, depth = 0): Json {
  switch (depth > 6 ? rng.int(4) : rng.int(8)) {
    case 0:
      return rng.pick(WRONG_TYPES);
    case 1:
      return String.fromCharCode(...Array.from({ length: rng.int(40) }, () => rng.int(0xd7ff)));
    case 2:
      return rng.next() * 1e6 - 5e5;
    case 3:
      return rng.pick(['{{name}}', '{{{raw}}}', '<script>alert(1)</script>', '__proto__', 'constructor', '\u202e']);
    case 4:
      return Array.from({ length: rng.int(5) }, () => garbage(rng, depth + 1));
    case 5:
      return JSON.parse('['.repeat(200) + ']'.repeat(200)) as Json;
    default:
      return Object.fromEntries(Array.from({ length: rng.int(5) }, (_, i) => [rng.pick(['a', '__proto__', 'constructor', 'value', 'persistent', `k${i}`]), garbage(rng, depth + 1)]));
  }
}

/** Noise that may be valid on its own; a body always has a breaker besides. */
function noise(rng: Rng, body: Body): void {
  for (let i = rng.int(3); i > 0; i--) {
    switch (rng.int(4)) {
      case 0:
        body.data = { nested: garbage(rng), once: { value: garbage(rng), persistent: false }, keep: rng.pick(['', null, 'x']) };
        break;
      case 1:
        // defined, not assigned: an assignment to __proto__ would set the prototype instead of a key
        Object.defineProperty(body, rng.pick(['extra', 'unknown', '__proto__', 'constructor']), { value: garbage(rng), enumerable: true, configurable: true, writable: true });
        break;
      case 2:
        body.subscribed = rng.next() < 0.5;
        break;
      default:
        body.data = { big: 'y'.repeat(rng.int(200_000)) };
    }
  }
}

const attachment = (over: Body = {}): Body => ({ filename: 'a.pdf', content: 'JVBERi0=', contentType: 'application/pdf', ...over });

const SEND_BREAKERS: ((rng: Rng, body: Body) => void)[] = [
  (rng, b) => void (b.to = rng.pick([...WRONG_TYPES.filter((v) => typeof v !== 'object' || v === null), ...BAD_EMAILS])),
  (rng, b) => void (b.to = Array.from({ length: 1 + rng.int(3) }, () => rng.pick([...BAD_EMAILS, { name: 'x' }, { email: 5 }, 7, null]))),
  (_, b) => void (b.to = Array.from({ length: 51 }, (_, i) => `r${i}@example.test`)),
  (_, b) => void delete b.to,
  (rng, b) => void (b.subject = `Hi${rng.pick(LINE_BREAKS)}there`),
  (rng, b) => void (b.subject = rng.pick(['', HUGE.slice(0, 999 + rng.int(5000)), 5, [], {}])),
  (rng, b) => void (b.body = rng.pick(['', 5, [], null])),
  (_, b) => void delete b.subject,
  (rng, b) => void (b.from = rng.pick([...BAD_EMAILS, { name: 'Acme' }, { email: 'bad' }, { name: `A${rng.pick(CRLF)}`, email: 'hello@fuzz.test' }, 5])),
  (rng, b) => void (b.name = rng.pick([`Acme${rng.pick(CRLF)}Bcc: x@example.test`, 5, {}, 'n'.repeat(201)])),
  (rng, b) => void (b.reply = rng.pick(BAD_EMAILS)),
  (rng, b) => void (b.template = rng.pick(['welcome', 5, '', '00000000-0000-4000-8000-00000000000', '../../etc'])),
  (rng, b) => void (b.subscribed = rng.pick(['yes', 1, 0, null, []])),
  (rng, b) => void (b.data = rng.pick(['x', 5, [], true])),
  (_, b) => void (b.data = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]))),
  (_, b) => void (b.data = { ['k'.repeat(201)]: 1 }),
  (rng, b) => void (b.headers = { [`X-A${rng.pick(CRLF)}Bcc`]: 'v' }),
  (rng, b) => void (b.headers = { 'X-Note': `a${rng.pick(CRLF)}Bcc: victim@example.test` }),
  (rng, b) => void (b.headers = { [rng.pick(['Bad Name', 'a:b', '', 'ü', 'h'.repeat(101)])]: 'v' }),
  (rng, b) => void (b.headers = { [rng.pick(['From', 'bcc', 'TO', 'Subject', 'Content-Type', 'X-Postmill-Email-Id', 'DKIM-Signature'])]: 'x@example.test' }),
  (rng, b) => void (b.headers = { 'X-Long': 'v'.repeat(999 + rng.int(100)) }),
  (rng, b) => void (b.headers = rng.pick([[], 'x', 5, { 'X-A': 5 }, { 'X-A': null }])),
  (_, b) => void (b.headers = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']))),
  (rng, b) => void (b.attachments = [attachment({ content: rng.pick(BROKEN_BASE64) })]),
  (_, b) => void (b.attachments = Array.from({ length: 11 }, () => attachment())),
  (rng, b) => void (b.attachments = [attachment({ filename: rng.pick(['a"b', "a'b", `a${rng.pick(CRLF)}b`, '', 5]) })]),
  (rng, b) => void (b.attachments = [attachment({ contentType: rng.pick(['pdf', '', 'text/plain\r\nBcc: x', 5, 'a/b/c']) })]),
  (_, b) => void (b.attachments = [attachment({ disposition: 'inline' })]),
  (rng, b) => void (b.attachments = [attachment({ contentId: rng.pick(['<x>', 'a b', '', 5]), disposition: 'inline' })]),
  (rng, b) => void (b.attachments = [rng.pick([{}, null, 5, 'a.pdf', [attachment()]])]),
  (rng, b) => void (b.attachments = rng.pick(['x', 5, {}, null])),
  (_, b) => void (b.attachments = [attachment({ content: OVERSIZED_BASE64 })]),
  (_, b) => void (b.from = 'someone@unverified.test'),
  (_, b) => void (b.template = '00000000-0000-4000-8000-000000000000'),
];

const TRACK_BREAKERS: ((rng: Rng, body: Body) => void)[] = [
  (rng, b) => void (b.email = rng.pick([...WRONG_TYPES, ...BAD_EMAILS])),
  (_, b) => void delete b.email,
  (_, b) => void delete b.event,
  (rng, b) => void (b.event = rng.pick([...WRONG_TYPES.filter((v) => typeof v !== 'string'), ''])),
  (rng, b) => void (b.event = rng.pick(['email.open', 'email.', 'email.sent', 'contact.subscribed', 'contact.unsubscribed', 'segment.vip.entry', 'segment.a-b.exit'])),
  (rng, b) => void (b.event = `evt${rng.pick(CRLF)}`),
  (rng, b) => void (b.event = 'e'.repeat(201 + rng.int(10_000))),
  (rng, b) => void (b.subscribed = rng.pick(['yes', 1, 0, null, []])),
  (rng, b) => void (b.data = rng.pick(['x', 5, [], true])),
  (_, b) => void (b.data = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]))),
  (_, b) => void (b.data = { ['k'.repeat(201)]: 1 }),
  (_, b) => void (b.email = HUGE),
];

const RAW_BODIES = ['', 'null', '[]', '"x"', '5', '{', '{"to":', '{"to":"a@example.test",}', '\u0000\u0001', '{"a":1}{"b":2}', '[' + '{'.repeat(5000)];

function bodies(breakers: ((rng: Rng, body: Body) => void)[], base: () => Body, seed: number): (Body | string)[] {
  const rng = generator(seed);
  return Array.from({ length: PER_ROUTE }, (_, i) => {
    if (i < RAW_BODIES.length) return RAW_BODIES[i]!;
    const body = base();
    noise(rng, body);
    for (let n = 1 + rng.int(2); n > 0; n--) rng.pick(breakers)(rng, body);
    return body;
  });
}

let env: MailEnv;
let d: TestDaemon;

test.before(async () => {
  // Mail is delivered to the sink: no bounce changes the counts while the fuzzing runs.
  env = await startMailEnv({ sinkDomains: ['example.test'], senders: ['fuzz.test'] });
  d = env.daemon;
  // some rows to stay untouched
  await d.request('POST', '/v1/send', { to: 'seed@example.test', subject: 's', body: 'b', from: 'hello@fuzz.test' });
  await d.request('POST', '/v1/track', { email: 'seed@example.test', event: 'seeded' }, { key: d.project.publicKey });
  // the seed email is delivered (email.delivery recorded) before counting starts
  await eventually(async () => (await d.request('GET', '/events?name=email.delivery')).body.data.length > 0, 10_000, 'the seed delivery');
});
test.after(async () => env.close());

async function counts() {
  const contacts = (await d.request('GET', '/contacts?limit=1')).body.total as number;
  const stats = (await d.request('GET', '/events/stats')).body.data as { count: number }[];
  const seed = (await d.request('POST', '/contacts/lookup', { emails: ['seed@example.test'] })).body.found[0];
  return { contacts, events: stats.reduce((sum, s) => sum + s.count, 0), seed: JSON.stringify((await d.request('GET', `/contacts/${seed.id}`)).body) };
}

async function fire(path: string, list: (Body | string)[], key: string): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < list.length) {
        const item = list[next++]!;
        const raw = typeof item === 'string' ? item : JSON.stringify(item);
        const r = await d.request('POST', path, undefined, { key, raw });
        const label = `${path} ${raw.slice(0, 160)}`;
        assert.ok(r.status >= 400 && r.status < 500, `${label} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
        assert.is(r.body.success, false, label);
        assert.ok(typeof r.body.error.code === 'string', label);
      }
    }),
  );
}

test(`${PER_ROUTE} malformed bodies at /v1/send: always a 4xx envelope, nothing written`, async () => {
  const before = await counts();
  const base = (): Body => ({ to: 'fuzzed@example.test', subject: 'Hello {{name}}', body: '<p>{{data.x}}</p>', from: 'hello@fuzz.test' });
  await fire('/v1/send', bodies(SEND_BREAKERS, base, 0x5eed), d.project.secretKey);
  assert.equal(await counts(), before, 'no contact, email event or data change');
  assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
});

test(`${PER_ROUTE} malformed bodies at /v1/track: always a 4xx envelope, nothing written`, async () => {
  const before = await counts();
  const base = (): Body => ({ email: 'fuzzed@example.test', event: 'fuzz-event' });
  await fire('/v1/track', bodies(TRACK_BREAKERS, base, 0x7a5c), d.project.publicKey);
  assert.equal(await counts(), before, 'no contact, event or data change');
  assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('the daemon is still healthy and accepts a valid send and track afterwards', async () => {
  const send = await d.request('POST', '/v1/send', { to: 'after@example.test', subject: 's', body: 'b', from: 'hello@fuzz.test' });
  assert.is(send.status, 200);
  const track = await d.request('POST', '/v1/track', { email: 'after@example.test', event: 'after' }, { key: d.project.publicKey });
  assert.is(track.status, 200);
  assert.not.match(d.stderr(), /unexpected error/);
});

test.run();
