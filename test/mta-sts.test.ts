// MTA-STS through the real daemon: policies served over HTTPS by a loopback server with the test's own
// CA (delivery.tls.caFile), the MX hosts behind the SMTP sink with certificates chosen per host name.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from './helpers/mail-env.js';
import { startSmtpSink } from './helpers/smtp-sink.js';
import { selfSigned } from './helpers/test-ca.js';
import { policyText, startTlsEnv, type TlsEnv } from './helpers/tls-peers.js';

let env: TlsEnv;

test.before(async () => {
  env = await startTlsEnv({
    delivery: { tls: { domains: { 'partner.test': 'verify', 'goodpartner.test': 'verify', 'anytls.test': 'require', 'optout.test': 'opportunistic' } } },
  });
});
test.after(async () => env.close());

async function send(to: string): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject: 'Over TLS', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

/** The email's first attempt, once there is one. */
async function firstAttempt(emailId: string): Promise<{ outcome: string; reply: string; tls: string | null; mx: string | null }> {
  return eventually(
    async () => {
      const r = await env.daemon.request('GET', `/emails/${emailId}`);
      return r.body.attempts?.[0];
    },
    10_000,
    `an attempt of ${emailId}`,
  );
}

/** kill -9 and start again on the same store: only what the store kept is known. */
async function restart(): Promise<void> {
  await env.daemon.kill();
  await env.daemon.restart();
}

const delivered = async (to: string) => {
  const attempt = await firstAttempt(await send(to));
  assert.is(attempt.outcome, 'delivered', attempt.reply);
  assert.match(String(attempt.tls), /^TLSv1\.[23]$/);
  const message = env.sink.messages.find((m) => m.rcptTo.includes(to));
  assert.ok(message?.secure, `${to} arrived over STARTTLS`);
};

const deferred = async (to: string, reason: RegExp) => {
  const attempt = await firstAttempt(await send(to));
  assert.is(attempt.outcome, 'deferred', attempt.reply);
  assert.match(attempt.reply, reason);
  assert.not.ok(env.sink.messages.some((m) => m.rcptTo.includes(to)), `nothing reached the sink for ${to}`);
};

test('enforce: delivered over TLS to an MX the policy names, with a certificate valid for it (a wildcard pattern too)', async () => {
  await env.publishPolicy('enforce.test', '1', policyText('enforce', ['mx.enforce.test']));
  await env.routeWithCertificate('enforce.test', 'mx.enforce.test', await env.ca.issue(['mx.enforce.test']));
  await delivered('ann@enforce.test');
  await env.publishPolicy('wild.test', '1', policyText('enforce', ['*.wild.test']));
  await env.routeWithCertificate('wild.test', 'mx1.wild.test', await env.ca.issue(['mx1.wild.test']));
  await delivered('ann@wild.test');
  assert.ok(env.https.requests.some((r) => r.host === 'mta-sts.enforce.test' && r.path === '/.well-known/mta-sts.txt'));
});

test('enforce: an MX the policy does not name gets nothing; the attempt says why', async () => {
  await env.publishPolicy('wrongmx.test', '1', policyText('enforce', ['mx.elsewhere.test', '*.other.test']));
  await env.routeWithCertificate('wrongmx.test', 'mx.wrongmx.test', await env.ca.issue(['mx.wrongmx.test']));
  await deferred('ann@wrongmx.test', /MTA-STS policy of wrongmx\.test \(enforce\) names none of its MX hosts \(mx\.wrongmx\.test\)/);
  // a wildcard stands for one label only
  await env.publishPolicy('deep.test', '1', policyText('enforce', ['*.deep.test']));
  await env.routeWithCertificate('deep.test', 'a.b.deep.test', await env.ca.issue(['a.b.deep.test']));
  await deferred('ann@deep.test', /names none of its MX hosts/);
});

test('enforce: an untrusted, a wrong-name or an expired certificate, or no STARTTLS at all, defers', async () => {
  await env.publishPolicy('badcert.test', '1', policyText('enforce', ['mx.badcert.test']));
  await env.routeWithCertificate('badcert.test', 'mx.badcert.test', await selfSigned(['mx.badcert.test']));
  await deferred('ann@badcert.test', /MTA-STS policy of badcert\.test \(enforce\): mx\.badcert\.test: certificate-not-trusted/);
  await env.publishPolicy('wrongname.test', '1', policyText('enforce', ['mx.wrongname.test']));
  await env.routeWithCertificate('wrongname.test', 'mx.wrongname.test', await env.ca.issue(['mx.someone-else.test']));
  await deferred('ann@wrongname.test', /mx\.wrongname\.test: certificate-host-mismatch/);
  await env.publishPolicy('expired.test', '1', policyText('enforce', ['mx.expired.test']));
  await env.routeWithCertificate('expired.test', 'mx.expired.test', await env.ca.issue(['mx.expired.test'], { expired: true }));
  await deferred('ann@expired.test', /mx\.expired\.test: certificate-expired/);
  // an MX host on another loopback address, same port, that offers no STARTTLS
  const plain = await startSmtpSink({ listen: { host: '127.0.0.2', port: env.sink.port } });
  try {
    await env.publishPolicy('notls.test', '1', policyText('enforce', ['mx.notls.test']));
    await env.routeWithCertificate('notls.test', 'mx.notls.test', null);
    env.dns.set('mx.notls.test', 'A', ['127.0.0.2']);
    await deferred('ann@notls.test', /mx\.notls\.test: starttls-not-supported/);
    assert.is(plain.messages.length, 0);
  } finally {
    await plain.close();
  }
});

test('testing: a bad certificate is delivered anyway (and counted for the report)', async () => {
  await env.publishPolicy('trial.test', '1', policyText('testing', ['mx.trial.test']));
  await env.routeWithCertificate('trial.test', 'mx.trial.test', await selfSigned(['mx.trial.test']));
  const attempt = await firstAttempt(await send('ann@trial.test'));
  assert.is(attempt.outcome, 'delivered', attempt.reply);
  // an MX the policy does not name too
  await env.publishPolicy('trial2.test', '1', policyText('testing', ['mx.elsewhere.test']));
  await env.routeWithCertificate('trial2.test', 'mx.trial2.test', await env.ca.issue(['mx.trial2.test']));
  assert.is((await firstAttempt(await send('ann@trial2.test'))).outcome, 'delivered');
});

test('mode none, an invalid policy or none published: opportunistic, as before', async () => {
  await env.publishPolicy('none.test', '1', policyText('none', []));
  await env.routeWithCertificate('none.test', 'mx.none.test', await selfSigned(['mx.none.test']));
  assert.is((await firstAttempt(await send('ann@none.test'))).outcome, 'delivered');
  await env.publishPolicy('broken.test', '1', 'version: STSv1\r\nmode: enforce\r\nmax_age: soon\r\n');
  await env.routeWithCertificate('broken.test', 'mx.broken.test', await selfSigned(['mx.broken.test']));
  assert.is((await firstAttempt(await send('ann@broken.test'))).outcome, 'delivered');
  await env.routeWithCertificate('plain.test', 'mx.plain.test', await selfSigned(['mx.plain.test']));
  assert.is((await firstAttempt(await send('ann@plain.test'))).outcome, 'delivered');
});

test('the policy is looked up once, not per message', async () => {
  await env.publishPolicy('busy.test', '1', policyText('enforce', ['mx.busy.test']));
  await env.routeWithCertificate('busy.test', 'mx.busy.test', await env.ca.issue(['mx.busy.test']));
  for (let i = 0; i < 5; i++) await delivered(`n${i}@busy.test`);
  assert.is(env.https.requests.filter((r) => r.host === 'mta-sts.busy.test').length, 1);
  assert.is(env.dns.asked('_mta-sts.busy.test'), 1);
});

test('the cached policy survives a restart and a failed fetch: no downgrade', async () => {
  await env.publishPolicy('keep.test', '1', policyText('enforce', ['mx.keep.test']));
  await env.routeWithCertificate('keep.test', 'mx.keep.test', await env.ca.issue(['mx.keep.test']));
  await delivered('ann@keep.test');
  // the policy server is gone, the TXT record too, and the MX now points at a host the policy does not name
  env.https.serve('mta-sts.keep.test', '/.well-known/mta-sts.txt', null);
  env.dns.clear('_mta-sts.keep.test');
  await env.routeWithCertificate('keep.test', 'mx.intruder.test', await env.ca.issue(['mx.intruder.test']));
  await restart();
  await deferred('bob@keep.test', /MTA-STS policy of keep\.test \(enforce\) names none of its MX hosts \(mx\.intruder\.test\)/);
  // a new id makes the daemon fetch again; the fetch fails (HTTP 500), so the cached policy still applies
  const before = env.https.requests.filter((r) => r.host === 'mta-sts.keep.test').length;
  await restart();
  env.dns.set('_mta-sts.keep.test', 'TXT', ['v=STSv1; id=2']);
  env.https.serve('mta-sts.keep.test', '/.well-known/mta-sts.txt', { status: 500, body: 'down' });
  await deferred('carl@keep.test', /names none of its MX hosts \(mx\.intruder\.test\)/);
  assert.is(env.https.requests.filter((r) => r.host === 'mta-sts.keep.test').length, before + 1, 'the new id was fetched');
  // once fetched under the new id, the new policy applies
  await restart();
  env.dns.set('_mta-sts.keep.test', 'TXT', ['v=STSv1; id=3']);
  env.https.serve('mta-sts.keep.test', '/.well-known/mta-sts.txt', { status: 200, body: policyText('enforce', ['mx.intruder.test']) });
  await delivered('dan@keep.test');
});

test('delivery.tls.domains: verify wants a valid certificate, require any TLS, opportunistic ignores the MTA-STS policy', async () => {
  await env.routeWithCertificate('partner.test', 'mx.partner.test', await selfSigned(['mx.partner.test']));
  await deferred('ann@partner.test', /TLS required for partner\.test \(delivery\.tls\.domains: verify\): certificate-not-trusted/);
  await env.routeWithCertificate('goodpartner.test', 'mx.goodpartner.test', await env.ca.issue(['mx.goodpartner.test']));
  await delivered('ann@goodpartner.test');
  await env.routeWithCertificate('anytls.test', 'mx.anytls.test', await selfSigned(['mx.anytls.test']));
  await delivered('ann@anytls.test');
  await env.publishPolicy('optout.test', '1', policyText('enforce', ['mx.elsewhere.test']));
  await env.routeWithCertificate('optout.test', 'mx.optout.test', await selfSigned(['mx.optout.test']));
  await delivered('ann@optout.test');
  assert.not.ok(env.https.requests.some((r) => r.host === 'mta-sts.optout.test'), 'the policy of an opportunistic domain is not even fetched');
});

test.run();
