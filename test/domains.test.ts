import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coveringNames, normalizeDomain } from '../src/domains/name.js';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server.js';
import { publishRecords, verifyDomain, type PublishedRecord } from './helpers/domains.js';
import { GARBAGE_BODIES } from './helpers/routes.js';

const ADMIN = 'domains-test-admin';
const HOST = 'mx.postmill.test';
const FIVE_MINUTES = 5 * 60_000;

let d: TestDaemon;
let dns: TestDnsServer;
let other: Keys;

test.before(async () => {
  dns = await startDnsServer();
  d = await startTestDaemon({
    config: { dns: { servers: [dns.address] }, rateLimit: { perMinute: 0 }, adminToken: ADMIN, testHooks: true },
  });
  other = d.createProject('other');
});
test.after(async () => {
  await d.dispose();
  await dns.close();
});

const register = (domain: unknown, key = d.project.secretKey) => d.request('POST', '/domains', { domain }, { key });
const verify = (id: string, key = d.project.secretKey) => d.request('GET', `/domains/${id}/verify`, undefined, { key });
const dkimOf = (records: PublishedRecord[]) => records.find((r) => r.purpose === 'dkim')!;
const keyOf = (record: PublishedRecord) => record.value.split('p=')[1]!;

/** Polls the project's domain list until `domain` has `status`; bounded. */
async function untilStatus(domain: string, status: string): Promise<any> {
  const end = Date.now() + 8000;
  for (;;) {
    const list = await d.request('GET', `/domains/project/${d.project.id}`);
    const found = list.body.data.find((x: { domain: string }) => x.domain === domain);
    if (found?.status === status) return found;
    if (Date.now() > end) throw new Error(`${domain} did not become ${status}: ${JSON.stringify(found)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

test('domain names: IDN to punycode, case and one trailing dot normalised, garbage refused', () => {
  assert.is(normalizeDomain('Bücher.Example.'), 'xn--bcher-kva.example');
  assert.is(normalizeDomain('MAIL.Example.COM'), 'mail.example.com');
  assert.is(normalizeDomain('ＥＸＡＭＰＬＥ。com'), 'example.com', 'IDNA maps full-width forms');
  for (const bad of ['', '.', 'localhost', 'example.com..', 'a..b.com', '-a.com', 'a-.com', 'a_b.com', 'ex%61mple.com', 'exa\tmple.com', ' example.com', '1.2.3.4', '[::1]', 'a@b.com', 'http://x.com', `${'x'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, 'xn--zz.com']) {
    assert.is(normalizeDomain(bad), null, JSON.stringify(bad));
  }
  assert.equal(coveringNames('a.b.example.com'), ['a.b.example.com', 'b.example.com', 'example.com']);
});

test('POST /domains: 201 pending with the four records to publish and an RSA-2048 DKIM key', async () => {
  const r = await register('Records.Example.TEST.');
  assert.is(r.status, 201);
  const body = r.body;
  assert.match(body.id, /^[0-9a-f-]{36}$/);
  assert.is(body.domain, 'records.example.test');
  assert.is(body.status, 'pending');
  assert.is(body.verified, false);
  assert.ok(!Number.isNaN(Date.parse(body.createdAt)));
  const records = body.records as PublishedRecord[];
  assert.equal(
    records.map((x) => [x.purpose, x.type, x.verified]),
    [
      ['dkim', 'TXT', false],
      ['bounce', 'MX', false],
      ['spf', 'TXT', false],
      ['dmarc', 'TXT', false],
    ],
  );
  const dkim = dkimOf(records);
  assert.match(dkim.name, /^pm\d{4}[0-9a-f]{4}\._domainkey\.records\.example\.test$/);
  assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
  const publicKey = createPublicKey({ key: Buffer.from(keyOf(dkim), 'base64'), format: 'der', type: 'spki' });
  assert.is(publicKey.asymmetricKeyType, 'rsa');
  assert.is(publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  assert.equal(records[1], { type: 'MX', name: 'bounces.records.example.test', value: HOST, priority: 10, purpose: 'bounce', verified: false });
  assert.equal(records[2], { type: 'TXT', name: 'bounces.records.example.test', value: `v=spf1 a:${HOST} ~all`, purpose: 'spf', verified: false });
  assert.equal(records[3], {
    type: 'TXT',
    name: '_dmarc.records.example.test',
    value: 'v=DMARC1; p=none; rua=mailto:dmarc@records.example.test',
    purpose: 'dmarc',
    verified: false,
  });
  assert.not.ok(JSON.stringify(body).includes('PRIVATE'), 'the private key never leaves the store');
});

test('verify: pending with a reason until the DKIM record matches; wrong and truncated keys stay pending', async () => {
  const created = (await register('keys.example.test')).body;
  const dkim = dkimOf(created.records);

  const none = await verify(created.id);
  assert.is(none.status, 200);
  assert.is(none.body.status, 'pending');
  assert.match(none.body.failureReason, /No TXT record found at pm/);
  assert.ok(!Number.isNaN(Date.parse(none.body.lastCheckedAt)));

  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  dns.set(dkim.name, 'TXT', [`v=DKIM1; k=rsa; p=${stranger}`]);
  const wrong = await verify(created.id);
  assert.is(wrong.body.status, 'pending');
  assert.match(wrong.body.failureReason, /does not match/);

  const truncated = dkim.value.slice(0, 255);
  dns.set(dkim.name, 'TXT', [truncated]);
  const cut = await verify(created.id);
  assert.is(cut.body.status, 'pending');
  assert.match(cut.body.failureReason, /truncated/);

  dns.set(dkim.name, 'TXT', ['v=spf1 -all']);
  assert.match((await verify(created.id)).body.failureReason, /not a DKIM RSA key record/);

  // Over 255 bytes: the loopback server sends several character-strings, which the lookup joins.
  assert.ok(dkim.value.length > 255);
  dns.set(dkim.name, 'TXT', [dkim.value]);
  const ok = await verify(created.id);
  assert.is(ok.body.status, 'verified');
  assert.is(ok.body.verified, true);
  assert.is(ok.body.failureReason, null);
  assert.equal(
    ok.body.records.map((x: PublishedRecord) => x.verified),
    [true, false, false, false],
    'MX, SPF and DMARC keep their own flags and do not gate verification',
  );

  // Folding whitespace inside the key is allowed (RFC 6376 3.6.1).
  const key = keyOf(dkim);
  dns.set(dkim.name, 'TXT', [`v=DKIM1; k=rsa; p=${key.slice(0, 100)} ${key.slice(100)}`]);
  assert.is((await verify(created.id)).body.status, 'verified');
});

test('every record has its own verified flag; records vanishing turn the domain pending (verify route)', async () => {
  const created = await verifyDomain(d, dns, 'vanish.example.test');
  const all = await verify(created.id);
  assert.equal(
    all.body.records.map((x: PublishedRecord) => x.verified),
    [true, true, true, true],
  );

  dns.set('bounces.vanish.example.test', 'MX', [{ exchange: 'elsewhere.test', priority: 10 }]);
  dns.set('bounces.vanish.example.test', 'TXT', ['v=spf1 a:elsewhere.test ~all']);
  const partial = await verify(created.id);
  assert.is(partial.body.status, 'verified');
  assert.equal(
    partial.body.records.map((x: PublishedRecord) => x.verified),
    [true, false, false, true],
  );

  for (const record of created.records) dns.clear(record.name);
  const gone = await verify(created.id);
  assert.is(gone.body.status, 'pending');
  assert.is(gone.body.verified, false);
  assert.match(gone.body.failureReason, /No TXT record found/);
  assert.equal(
    gone.body.records.map((x: PublishedRecord) => x.verified),
    [false, false, false, false],
  );
  const refused = await d.request('POST', '/templates', { name: 'n', subject: 's', body: 'b', from: 'hi@vanish.example.test' });
  assert.is(refused.status, 403, 'sending from it stops');
});

test('the 5-minute background job re-checks verified and pending domains (clock moved by the test hook)', async () => {
  const created = await verifyDomain(d, dns, 'job.example.test');
  const dkim = dkimOf(created.records);
  dns.clear(dkim.name);
  const clock = await d.request('POST', '/_test/clock', { advanceMs: FIVE_MINUTES + 1000 }, { key: ADMIN });
  assert.is(clock.status, 200);
  const lost = await untilStatus('job.example.test', 'pending');
  assert.match(lost.failureReason, /No TXT record found/);

  publishRecords(dns, created.records);
  await d.request('POST', '/_test/clock', { advanceMs: FIVE_MINUTES + 1000 }, { key: ADMIN });
  const back = await untilStatus('job.example.test', 'verified');
  assert.is(back.failureReason, null);
});

test('a domain of another project is 409; the same project again is 409 naming its id', async () => {
  const mine = (await register('taken.example.test')).body;
  const again = await register('TAKEN.example.test.');
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'CONFLICT');
  assert.is(again.body.error.details.id, mine.id);
  const theirs = await register('taken.example.test', other.secretKey);
  assert.is(theirs.status, 409);
  assert.match(theirs.body.error.message, /another project/);
  assert.is(theirs.body.error.details, undefined, "the owner's id is not shown to another project");
  const idn = await register('bücher.example.test');
  assert.is(idn.status, 201);
  assert.is(idn.body.domain, 'xn--bcher-kva.example.test');
  assert.is((await register('xn--bcher-kva.example.test', other.secretKey)).status, 409, 'the Unicode and punycode forms are one domain');
});

test('invalid domain names are 422 VALIDATION_ERROR on field domain', async () => {
  for (const bad of ['', 'localhost', 'exa mple.com', '1.2.3.4', 'a..b.com', '-x.com', 'ex%61mple.com', 'a@b.com', 'x'.repeat(2000), 5, null, ['a.com'], { d: 1 }]) {
    const r = await register(bad);
    assert.is(r.status, 422, JSON.stringify(bad));
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.is(r.body.error.errors[0].field, 'domain');
  }
  const missing = await d.request('POST', '/domains', {});
  assert.is(missing.status, 422);
  assert.is(missing.body.error.errors[0].field, 'domain');
});

test("GET /domains/project/{projectId}: the key's own project only, verified and pending", async () => {
  const p = d.createProject('listing');
  const key = p.secretKey;
  await verifyDomain(d, dns, 'listed-verified.example.test', key);
  await register('listed-pending.example.test', key);
  const list = await d.request('GET', `/domains/project/${p.id}`, undefined, { key });
  assert.is(list.status, 200);
  assert.equal(
    list.body.data.map((x: { domain: string; status: string; verified: boolean }) => [x.domain, x.status, x.verified]),
    [
      ['listed-verified.example.test', 'verified', true],
      ['listed-pending.example.test', 'pending', false],
    ],
  );
  for (const item of list.body.data) {
    assert.equal(Object.keys(item).sort(), ['createdAt', 'domain', 'failureReason', 'id', 'lastCheckedAt', 'records', 'status', 'updatedAt', 'verified']);
    assert.is(item.records.length, 4);
  }
  assert.is(list.body.data[1].lastCheckedAt, null);
  assert.is((await d.request('GET', `/domains/project/${d.project.id}`, undefined, { key })).status, 404);
  assert.is((await d.request('GET', '/domains/project/not-a-uuid', undefined, { key })).status, 404);
});

test("DELETE /domains/{id}: 204, then 404; another project's domain is 404 on every route", async () => {
  const created = (await register('delete-me.example.test')).body;
  const foreign = await register('foreign.example.test', other.secretKey);
  assert.is((await verify(foreign.body.id)).status, 404);
  assert.is((await d.request('DELETE', `/domains/${foreign.body.id}`)).status, 404);
  assert.is((await verify(foreign.body.id, other.secretKey)).status, 200, 'untouched for its owner');
  const del = await d.request('DELETE', `/domains/${created.id}`);
  assert.is(del.status, 204);
  assert.is(del.body, '');
  assert.is((await verify(created.id)).status, 404);
  assert.is((await d.request('DELETE', `/domains/${created.id}`)).status, 404);
  assert.is((await d.request('DELETE', '/domains/%00%ff')).status, 404);
  const readded = await register('delete-me.example.test', other.secretKey);
  assert.is(readded.status, 201, 'a removed domain is free again');
  assert.is.not(dkimOf(readded.body.records).value, dkimOf(created.records).value, 'with a new key');
});

test('garbage bodies never answer 500', async () => {
  for (const raw of GARBAGE_BODIES) {
    const r = await d.request('POST', '/domains', undefined, { raw });
    assert.ok(r.status >= 400 && r.status < 500, `${r.status} for ${String(raw).slice(0, 60)}`);
  }
});

test.run();
