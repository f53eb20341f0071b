import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coveringNames, normalizeDomain } from '../src/addresses/domain-name.js';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { publishRecords, type PublishedRecord, type RegisteredDomain } from './helpers/domains.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { GARBAGE_BODIES } from './helpers/routes.js';

const HOST = 'mx.postmill.test';
const FIVE_MINUTES = 5 * 60_000;

let env: MailEnv;
let d: TestDaemon;
let other: Keys;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  other = d.createProject('other');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

const register = (domain: unknown, key = d.project.secretKey) => d.request('POST', '/domains', { domain }, { key });
const verify = (id: string, key = d.project.secretKey) => d.request('GET', `/domains/${id}/verify`, undefined, { key });
const listOwn = async (project: Keys = d.project) => (await d.request('GET', `/domains/project/${project.id}`, undefined, { key: project.secretKey })).body.data;
const sendFrom = (from: string) => d.request('POST', '/v1/send', { to: 'ann@rcpt.test', from, subject: 'Hello', body: '<p>Hi</p>' });
const flags = (records: PublishedRecord[]) => Object.fromEntries(records.map((r) => [r.purpose, r.verified]));
const dkimOf = (records: PublishedRecord[]) => records.find((r) => r.purpose === 'dkim')!;
const keyOf = (record: PublishedRecord) => record.value.split('p=')[1]!;

async function registered(domain: string, key = d.project.secretKey): Promise<RegisteredDomain> {
  const r = await register(domain, key);
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** Polls the project's list (what a dashboard sees) until `domain` has `status`; bounded. */
const untilStatus = (domain: string, status: string) =>
  eventually(async () => (await listOwn()).find((x: { domain: string; status: string }) => x.domain === domain && x.status === status), 8000, `${domain} ${status}`);

test('domain names: IDN to punycode, case and one trailing dot normalised, garbage refused', () => {
  assert.is(normalizeDomain('Bücher.Example.'), 'xn--bcher-kva.example');
  assert.is(normalizeDomain('MAIL.Example.COM'), 'mail.example.com');
  assert.is(normalizeDomain('ＥＸＡＭＰＬＥ。com'), 'example.com', 'IDNA maps full-width forms');
  const bad = ['', '.', 'localhost', 'example.com..', 'a..b.com', '-a.com', 'a-.com', 'a_b.com', 'ex%61mple.com', 'exa\tmple.com', ' example.com', '1.2.3.4', '0x7f.1', '[::1]', 'a@b.com', 'http://x.com', `${'x'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, 'xn--zz.com'];
  for (const name of bad) assert.is(normalizeDomain(name), null, JSON.stringify(name));
  assert.equal(coveringNames('a.b.example.com'), ['a.b.example.com', 'b.example.com', 'example.com']);
});

test('POST /domains: 201 pending with exactly the four records to publish and an RSA-2048 DKIM key', async () => {
  const r = await register('records.example.test');
  assert.is(r.status, 201);
  const body = r.body;
  assert.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is(body.domain, 'records.example.test');
  assert.is(body.status, 'pending');
  assert.is(body.verified, false);
  assert.is(body.lastCheckedAt, null);
  assert.ok(!Number.isNaN(Date.parse(body.createdAt)));
  const records = body.records as PublishedRecord[];
  assert.is(records.length, 4);
  const dkim = records[0]!;
  assert.is(dkim.type, 'TXT');
  assert.is(dkim.purpose, 'dkim');
  assert.is(dkim.verified, false);
  assert.match(dkim.name, /^pm\d{4}[0-9a-f]{4}\._domainkey\.records\.example\.test$/);
  assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
  const publicKey = createPublicKey({ key: Buffer.from(keyOf(dkim), 'base64'), format: 'der', type: 'spki' });
  assert.is(publicKey.asymmetricKeyType, 'rsa');
  assert.is(publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  assert.equal(records.slice(1), [
    { type: 'MX', name: 'bounces.records.example.test', value: HOST, priority: 10, purpose: 'bounce', verified: false },
    { type: 'TXT', name: 'bounces.records.example.test', value: `v=spf1 a:${HOST} ~all`, purpose: 'spf', verified: false },
    { type: 'TXT', name: '_dmarc.records.example.test', value: 'v=DMARC1; p=none; rua=mailto:dmarc@records.example.test', purpose: 'dmarc', verified: false },
  ]);
  const second = (await registered('records2.example.test')).records;
  assert.is.not(keyOf(dkimOf(second)), keyOf(dkim), 'a fresh key per domain');
});

test('IDN, trailing dot and upper case are normalised; every form of one name is the same domain', async () => {
  const idn = await registered('bücher.test');
  assert.is(idn.domain, 'xn--bcher-kva.test');
  assert.ok(dkimOf(idn.records).name.endsWith('._domainkey.xn--bcher-kva.test'));
  assert.is((await register('xn--bcher-kva.test')).status, 409, 'the punycode form is the same domain');
  assert.is((await register('BÜCHER.TEST.')).status, 409);
  assert.is((await registered('Upper.Example.TEST.')).domain, 'upper.example.test');
  assert.is((await register('upper.example.test')).status, 409);
});

test('invalid domain names are 422 VALIDATION_ERROR on field domain', async () => {
  const longName = `${'a'.repeat(60)}.`.repeat(5) + 'com'; // every label valid, 308 characters in all
  const garbage: unknown[] = ['', 'localhost', '1.2.3.4', 'a..b', 'exa mple.com', longName, 'x'.repeat(300), 'x'.repeat(2000), '-x.com', 'ex%61mple.com', 'a@b.com', '*.example.com', 'example.com:25', 5, true, null, ['a.com'], { d: 1 }];
  const before = (await listOwn()).length;
  for (const bad of garbage) {
    const r = await register(bad);
    assert.is(r.status, 422, JSON.stringify(bad));
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.errors.map((e: { field: string }) => e.field), ['domain'], JSON.stringify(bad));
  }
  const missing = await d.request('POST', '/domains', {});
  assert.is(missing.status, 422);
  assert.equal(missing.body.error.errors.map((e: { field: string }) => e.field), ['domain']);
  assert.is((await listOwn()).length, before, 'nothing was registered');
});

test('verify: pending with a reason until the DKIM record matches; wrong and truncated keys stay pending', async () => {
  const created = await registered('keys.example.test');
  const dkim = dkimOf(created.records);

  const none = await verify(created.id);
  assert.is(none.status, 200);
  assert.is(none.body.status, 'pending');
  assert.match(none.body.failureReason, /No TXT record found at pm/);
  assert.ok(!Number.isNaN(Date.parse(none.body.lastCheckedAt)));

  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  env.dns.set(dkim.name, 'TXT', [`v=DKIM1; k=rsa; p=${stranger}`]);
  const wrong = await verify(created.id);
  assert.is(wrong.body.status, 'pending');
  assert.match(wrong.body.failureReason, /does not match/);

  env.dns.set(dkim.name, 'TXT', [dkim.value.slice(0, 255)]);
  const cut = await verify(created.id);
  assert.is(cut.body.status, 'pending');
  assert.match(cut.body.failureReason, /truncated/);

  env.dns.set(dkim.name, 'TXT', ['v=spf1 -all']);
  assert.match((await verify(created.id)).body.failureReason, /not a DKIM RSA key record/);
  assert.is((await sendFrom('hi@keys.example.test')).status, 403, 'never verified, never sends');

  // The whole key is over 255 bytes, so the DNS answer carries it as several character-strings.
  env.dns.set(dkim.name, 'TXT', [dkim.value]);
  const resolver = new Resolver();
  resolver.setServers([env.dns.address]);
  const [strings] = await resolver.resolveTxt(dkim.name);
  assert.ok(strings!.length > 1, `${strings!.length} character-strings`);
  const ok = await verify(created.id);
  assert.is(ok.body.status, 'verified');
  assert.is(ok.body.verified, true);
  assert.is(ok.body.failureReason, null);
  assert.equal(flags(ok.body.records), { dkim: true, bounce: false, spf: false, dmarc: false }, 'MX, SPF and DMARC do not gate verification');
  assert.is((await sendFrom('hi@keys.example.test')).status, 200);

  // Folding whitespace inside the key is allowed (RFC 6376 3.6.1).
  const key = keyOf(dkim);
  env.dns.set(dkim.name, 'TXT', [`v=DKIM1; k=rsa; p=${key.slice(0, 100)} ${key.slice(100)}`]);
  assert.is((await verify(created.id)).body.status, 'verified');
});

test('per-record flags; records vanishing turn the domain pending on verify and /v1/send is refused with 403', async () => {
  const created = await env.verifySender('vanish.example.test');
  const all = await verify(created.id);
  assert.equal(flags(all.body.records), { dkim: true, bounce: true, spf: true, dmarc: true });
  assert.is((await sendFrom('hi@vanish.example.test')).status, 200);

  env.dns.set('bounces.vanish.example.test', 'MX', [{ exchange: 'elsewhere.test', priority: 10 }]);
  env.dns.set('bounces.vanish.example.test', 'TXT', ['v=spf1 a:elsewhere.test ~all']);
  const partial = await verify(created.id);
  assert.is(partial.body.status, 'verified');
  assert.equal(flags(partial.body.records), { dkim: true, bounce: false, spf: false, dmarc: true });

  for (const record of created.records) env.dns.clear(record.name);
  const gone = await verify(created.id);
  assert.is(gone.body.status, 'pending');
  assert.is(gone.body.verified, false);
  assert.match(gone.body.failureReason, /No TXT record found/);
  assert.equal(flags(gone.body.records), { dkim: false, bounce: false, spf: false, dmarc: false });

  const refused = await sendFrom('hi@vanish.example.test');
  assert.is(refused.status, 403);
  assert.is(refused.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.match(refused.body.error.message, /vanish\.example\.test is not verified/);
  assert.is((await sendFrom('hi@news.vanish.example.test')).status, 403, 'nor from its subdomains');
  const template = await d.request('POST', '/templates', { name: 'n', subject: 's', body: 'b', from: 'hi@vanish.example.test' });
  assert.is(template.status, 403);

  publishRecords(env.dns, created.records);
  assert.is((await verify(created.id)).body.status, 'verified');
  assert.is((await sendFrom('hi@vanish.example.test')).status, 200, 'verified again, sending resumes');
});

test('the 5-minute background job re-checks every domain (daemon clock moved by the test hook)', async () => {
  const created = await env.verifySender('job.example.test');
  const pending = await registered('job-pending.example.test');
  env.dns.clear(dkimOf(created.records).name);

  await env.advance(FIVE_MINUTES + 1000);
  const lost = await untilStatus('job.example.test', 'pending');
  assert.match(lost.failureReason, /No TXT record found/);
  assert.ok(Date.parse(lost.lastCheckedAt) > Date.now() + FIVE_MINUTES - 60_000, 'checked at the moved clock time');
  assert.is((await sendFrom('hi@job.example.test')).status, 403);

  publishRecords(env.dns, created.records);
  publishRecords(env.dns, pending.records);
  await env.advance(FIVE_MINUTES + 1000);
  const back = await untilStatus('job.example.test', 'verified');
  assert.is(back.failureReason, null);
  await untilStatus('job-pending.example.test', 'verified');
  assert.is((await sendFrom('hi@job.example.test')).status, 200);
});

test('mail from a subdomain of a verified domain is signed with the published key of that domain', async () => {
  const created = await env.verifySender('signed.test');
  const before = env.sink.messages.length;
  const r = await sendFrom('news@mail.signed.test');
  assert.is(r.status, 200, JSON.stringify(r.body));
  const message = (await env.sink.waitFor(before + 1, 8000))[before]!;
  assert.is(message.mailFrom, `b-${r.body.data.emails[0].email}@bounces.signed.test`);
  const dkim = await verifyDkim(message.raw, env.dns.address);
  assert.ok(dkim.pass, JSON.stringify(dkim.results));
  const [signature] = dkim.results as { signingDomain: string; selector: string }[];
  assert.is(signature!.signingDomain, 'signed.test');
  assert.is(`${signature!.selector}._domainkey.signed.test`, dkimOf(created.records).name);
});

test("the same project again is 409 naming its id; another project's pending claim blocks nobody, its verified name does", async () => {
  const mine = await registered('taken.example.test');
  const again = await register('TAKEN.example.test.');
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'CONFLICT');
  assert.is(again.body.error.details.id, mine.id);
  const claim = await register('taken.example.test', other.secretKey);
  assert.is(claim.status, 201, 'a pending claim is no obstacle');
  publishRecords(env.dns, mine.records);
  assert.is((await verify(mine.id)).body.status, 'verified');
  const theirs = await register('taken.example.test', d.createProject('late').secretKey);
  assert.is(theirs.status, 409);
  assert.match(theirs.body.error.message, /verified by another project/);
  assert.is(theirs.body.error.details, undefined, "the owner's id is not shown to another project");
  const raced = await Promise.all([1, 2, 3, 4].map((i) => register('raced.example.test', i % 2 ? other.secretKey : d.project.secretKey)));
  assert.equal(raced.map((r) => r.status).sort(), [201, 201, 409, 409], 'concurrent registrations: one claim per project');
});

test("GET /domains/project/{projectId}: the key's own project only, verified and pending", async () => {
  const p = d.createProject('listing');
  await env.verifySender('listed-verified.example.test', p);
  await registered('listed-pending.example.test', p.secretKey);
  const list = await d.request('GET', `/domains/project/${p.id}`, undefined, { key: p.secretKey });
  assert.is(list.status, 200);
  assert.equal(
    list.body.data.map((x: { domain: string; status: string; verified: boolean }) => [x.domain, x.status, x.verified]),
    [
      ['listed-verified.example.test', 'verified', true],
      ['listed-pending.example.test', 'pending', false],
    ],
  );
  for (const item of list.body.data) {
    assert.equal(Object.keys(item).sort(), ['createdAt', 'domain', 'failureReason', 'health', 'id', 'lastCheckedAt', 'records', 'status', 'updatedAt', 'verified', 'verifiedWithoutDns', 'warmup']);
    assert.is(item.records.length, 4);
  }
  assert.is(list.body.data[1].lastCheckedAt, null);
  for (const path of [`/domains/project/${d.project.id}`, `/domains/project/${other.id}`, '/domains/project/not-a-uuid']) {
    const r = await d.request('GET', path, undefined, { key: p.secretKey });
    assert.is(r.status, 404, path);
    assert.is(r.body.error.code, 'NOT_FOUND');
  }
  assert.is((await d.request('GET', `/domains/project/${p.id}`, undefined, { key: p.publicKey })).status, 401, 'secret key only');
});

test("GET /domains: the key's project's domains, exactly as /domains/project/{projectId} lists them", async () => {
  const a = d.createProject('short-list-a');
  const b = d.createProject('short-list-b');
  await env.verifySender('short-verified.example.test', a);
  await registered('short-pending.example.test', a.secretKey);
  await registered('short-b.example.test', b.secretKey);
  for (const [project, domains] of [
    [a, ['short-verified.example.test', 'short-pending.example.test']],
    [b, ['short-b.example.test']],
  ] as const) {
    const short = await d.request('GET', '/domains', undefined, { key: project.secretKey });
    assert.is(short.status, 200, JSON.stringify(short.body));
    assert.equal(short.body, (await d.request('GET', `/domains/project/${project.id}`, undefined, { key: project.secretKey })).body);
    assert.equal(
      short.body.data.map((x: { domain: string }) => x.domain),
      domains,
    );
  }
  const empty = d.createProject('short-list-empty');
  const none = (await d.request('GET', '/domains', undefined, { key: empty.secretKey })).body;
  assert.equal(none.data, []);
  assert.equal(Object.keys(none.hostname).sort(), ['fix', 'name', 'problem', 'verdict'], 'the hostname check comes with every list');
  const refused = await d.request('GET', '/domains', undefined, { key: a.publicKey });
  assert.is(refused.status, 401, 'secret key only');
  assert.is(refused.body.error.code, 'INVALID_API_KEY');
  d.cli('project', 'disable', a.id);
  assert.is((await d.request('GET', '/domains', undefined, { key: a.secretKey })).status, 200, 'a read: a disabled project still lists');
});

test("DELETE /domains/{id}: 204, then 404; another project's domain is 404 on every route", async () => {
  const created = await env.verifySender('delete-me.example.test');
  const foreign = await registered('foreign.example.test', other.secretKey);
  assert.is((await verify(foreign.id)).status, 404);
  assert.is((await d.request('DELETE', `/domains/${foreign.id}`)).status, 404);
  assert.is((await verify(foreign.id, other.secretKey)).status, 200, 'untouched for its owner');

  const del = await d.request('DELETE', `/domains/${created.id}`);
  assert.is(del.status, 204);
  assert.is(del.body, '');
  assert.is((await verify(created.id)).status, 404);
  assert.is((await d.request('DELETE', `/domains/${created.id}`)).status, 404);
  assert.is((await d.request('DELETE', '/domains/%00%ff')).status, 404);
  assert.not.ok((await listOwn()).some((x: { id: string }) => x.id === created.id));
  const refused = await sendFrom('hi@delete-me.example.test');
  assert.is(refused.status, 403, 'a removed domain no longer sends');
  assert.match(refused.body.error.message, /not registered to this project/);

  const readded = await registered('delete-me.example.test', other.secretKey);
  assert.is.not(dkimOf(readded.records).value, dkimOf(created.records).value, 'free again, with a new key');
});

test('the private key never appears in any answer', async () => {
  const created = await env.verifySender('secret.example.test');
  const answers = [created, (await verify(created.id)).body, await listOwn()];
  for (const answer of answers) {
    const text = JSON.stringify(answer);
    assert.not.ok(/PRIVATE KEY|privateKey|private_key/i.test(text), text.slice(0, 200));
    assert.not.ok(/MIIE[A-Za-z0-9+/]{60}/.test(text), 'no base64 PKCS#8 RSA-2048 key either');
  }
});

test('garbage bodies never answer 500', async () => {
  for (const raw of GARBAGE_BODIES) {
    const r = await d.request('POST', '/domains', undefined, { raw });
    assert.ok(r.status >= 400 && r.status < 500, `${r.status} for ${String(raw).slice(0, 60)}`);
  }
});

test.run();
