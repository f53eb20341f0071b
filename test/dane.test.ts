// DANE (RFC 7672) through the real daemon: TLSA records of the MX host served by the loopback DNS
// server, with the AD bit set as a local validating resolver would; the sink shows each MX host its
// own certificate.
import { createHash, X509Certificate } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { trustsAdBit } from '../src/outbound/tls-policy/dane.js';
import { eventually } from './helpers/mail-env.js';
import { selfSigned, type Pem } from './helpers/test-ca.js';
import { startTlsEnv, type TlsEnv } from './helpers/tls-peers.js';

let env: TlsEnv;

test.before(async () => {
  env = await startTlsEnv({ delivery: { tls: { dane: true } } });
});
test.after(async () => env.close());

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
const spki = (pem: string) => new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }) as Buffer;
const der = (pem: string) => new X509Certificate(pem).raw;

/** Routes `domain` to `mx.<domain>` with `pem`, and publishes TLSA records for it (AD set unless `secure` is false). */
async function daneDomain(domain: string, pem: Pem, records: { usage: number; selector: number; matchingType: number; data: Buffer }[], secure = true) {
  const mx = `mx.${domain}`;
  await env.routeWithCertificate(domain, mx, pem);
  const name = `_${env.sink.port}._tcp.${mx}`;
  env.dns.set(name, 'TLSA', records);
  env.dns.secure(name, secure);
}

async function attemptOf(to: string) {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject: 'DANE', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const id = r.body.data.emails[0].email;
  return eventually(async () => (await env.daemon.request('GET', `/emails/${id}`)).body.attempts?.[0], 10_000, `an attempt of ${to}`);
}

const arrived = (to: string) => env.sink.messages.some((m) => m.rcptTo.includes(to));

test('the AD bit is believed only from loopback resolvers', () => {
  assert.ok(trustsAdBit(['127.0.0.1']));
  assert.ok(trustsAdBit(['127.0.0.53:5353', '[::1]:53', '::1']));
  assert.not.ok(trustsAdBit([]));
  assert.not.ok(trustsAdBit(['127.0.0.1', '9.9.9.9']));
  assert.not.ok(trustsAdBit(['192.168.1.1']));
});

test('DANE-EE 3 1 1 and 3 0 1 matching a self-signed certificate: delivered over TLS', async () => {
  const pem = await selfSigned(['mx.ee.test']);
  await daneDomain('ee.test', pem, [{ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(pem.cert)) }]);
  const attempt = await attemptOf('ann@ee.test');
  assert.is(attempt.outcome, 'delivered', attempt.reply);
  assert.match(String(attempt.tls), /^TLSv1\.[23]$/);
  const full = await selfSigned(['mx.full.test']);
  await daneDomain('full.test', full, [
    { usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32, 7) },
    { usage: 3, selector: 0, matchingType: 1, data: sha256(der(full.cert)) },
  ]);
  assert.is((await attemptOf('ann@full.test')).outcome, 'delivered');
});

test('DANE-TA 2 0 1 of the CA that issued the chain: delivered; a chain for another name is not', async () => {
  const leaf = await env.ca.issue(['mx.ta.test']);
  const ta = [{ usage: 2, selector: 0, matchingType: 1, data: sha256(der(env.ca.cert)) }];
  await daneDomain('ta.test', { key: leaf.key, cert: `${leaf.cert}\n${env.ca.cert}` }, ta);
  const first = await attemptOf('ann@ta.test');
  assert.is(first.outcome, 'delivered', first.reply);
  const other = await env.ca.issue(['mx.somewhere-else.test']);
  await daneDomain('taname.test', { key: other.key, cert: `${other.cert}\n${env.ca.cert}` }, ta);
  const attempt = await attemptOf('ann@taname.test');
  assert.is(attempt.outcome, 'deferred');
  assert.match(attempt.reply, /DANE \(TLSA of mx\.taname\.test\): the certificate is not valid for mx\.taname\.test/);
  assert.not.ok(arrived('ann@taname.test'));
});

test('a TLSA record that matches nothing defers, with the reason in the attempt', async () => {
  const pem = await selfSigned(['mx.mismatch.test']);
  await daneDomain('mismatch.test', pem, [{ usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32, 1) }]);
  const attempt = await attemptOf('ann@mismatch.test');
  assert.is(attempt.outcome, 'deferred');
  assert.match(attempt.reply, /DANE \(TLSA of mx\.mismatch\.test\): no TLSA record of mx\.mismatch\.test matches the certificate chain/);
  assert.not.ok(arrived('ann@mismatch.test'));
});

test('without the AD bit, or with no usable record (PKIX-EE 1 x x), TLSA is not applied: opportunistic', async () => {
  const pem = await selfSigned(['mx.unsigned.test']);
  await daneDomain('unsigned.test', pem, [{ usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32, 1) }], false);
  assert.is((await attemptOf('ann@unsigned.test')).outcome, 'delivered');
  const pkix = await selfSigned(['mx.pkix.test']);
  await daneDomain('pkix.test', pkix, [{ usage: 1, selector: 1, matchingType: 1, data: Buffer.alloc(32, 1) }]);
  assert.is((await attemptOf('ann@pkix.test')).outcome, 'delivered');
});

test.run();
