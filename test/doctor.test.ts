import { generateKeyPairSync } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './helpers/cli.js';
import { startDnsServer } from './helpers/dns-server.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { startNtpServer, type TestNtpServer } from './helpers/ntp-server.js';
import { reportKeyRecordIn } from './helpers/report-key.js';

interface Check {
  name: string;
  ok: boolean;
  warning: boolean;
  detail: string;
  fix: string | null;
}

let env: MailEnv;
let ntp: TestNtpServer;
/** The record of the key that signs TLS-RPT report mails, as the doctor gives it. */
let reportKey: { name: string; value: string };

test.before(async () => {
  env = await startMailEnv();
  ntp = await startNtpServer();
  // What a correct install has: the MX of the probe domain answers on delivery.port, the host name
  // and its address name each other, the sender domain's records are published.
  env.dns.set('.', 'NS', ['a.root-servers.test', 'b.root-servers.test']);
  env.routeToSink('probe.test');
  env.dns.set('mx.postmill.test', 'A', ['127.0.0.1']);
  env.dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['mx.postmill.test']);
  await env.verifySender('acme.test');
  const first = await doctor();
  reportKey = reportKeyRecordIn(first.byName('tls-rpt signing key').fix)!;
  assert.ok(reportKey, JSON.stringify(first.byName('tls-rpt signing key')));
  env.dns.set(reportKey.name, 'TXT', [reportKey.value]);
});
test.after(async () => {
  await ntp.close();
  await env.close();
});

async function doctor(env_: Record<string, string> = {}, probe = 'probe.test') {
  const r = await runCli(['doctor', '--json', '--config', env.daemon.configFile, '--probe-domain', probe, '--ntp-server', ntp.address], {
    POSTMILL_PUBLIC_URL: env.daemon.url,
    ...env_,
  });
  const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
  return { status: r.status, checks, byName: (name: string) => checks.find((c) => c.name === name)! };
}

test('a correct install passes every check and exits 0', async () => {
  const r = await doctor();
  assert.equal(
    r.checks.filter((c) => !c.ok),
    [],
  );
  assert.is(r.status, 0);
  assert.equal(
    r.checks.map((c) => c.name),
    ['dns', 'outbound-smtp', 'hostname', 'reverse-dns', 'domain acme.test', 'alignment acme.test', 'tls-rpt signing key', 'public-url', 'clock'],
  );
  assert.ok(r.checks.every((c) => Object.keys(c).sort().join() === 'detail,fix,name,ok,warning'));
  assert.ok(r.checks.filter((c) => c.name !== 'alignment acme.test').every((c) => !c.warning && c.fix === null));
  // the records POST /domains hands out start DMARC at p=none: aligned, and a warning to tighten it
  const alignment = r.byName('alignment acme.test');
  assert.equal([alignment.ok, alignment.warning], [true, true]);
  assert.match(alignment.detail, 'DKIM (d=acme.test) and SPF (bounces.acme.test, relaxed) align with From acme.test; DMARC at _dmarc.acme.test: p=none');
  assert.match(alignment.fix!, 'p=quarantine');
  assert.match(r.byName('dns').detail, `${env.dns.address} answers (2 root name servers)`);
  assert.match(r.byName('outbound-smtp').detail, '220');
  assert.match(r.byName('reverse-dns').detail, '127.0.0.1 <-> mx.postmill.test');
});

test('what a new install gets wrong: each failure says how to fix it, and the exit is 1', async () => {
  ntp.skewMs = 60_000;
  env.dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['vps-1234.provider.test']);
  // An MX where nothing listens, as when a provider blocks outbound port 25.
  env.dns.set('blocked.test', 'MX', [{ exchange: 'mx.blocked.test', priority: 10 }]);
  env.dns.set('mx.blocked.test', 'A', ['127.0.0.2']);
  const forgotten = await env.daemon.request('POST', '/domains', { domain: 'forgotten.test' });
  assert.is(forgotten.status, 201);
  try {
    const r = await doctor({ POSTMILL_PUBLIC_URL: 'http://127.0.0.1:1' }, 'blocked.test');
    assert.is(r.status, 1);
    const fails = Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.name, c]));
    assert.equal(Object.keys(fails).sort(), ['alignment forgotten.test', 'clock', 'domain forgotten.test', 'outbound-smtp', 'public-url', 'reverse-dns']);
    assert.match(fails['alignment forgotten.test']!.detail, 'no DMARC record at _dmarc.forgotten.test; DKIM does not verify');
    assert.match(fails['alignment forgotten.test']!.fix!, 'TXT _dmarc.forgotten.test = v=DMARC1');
    assert.match(fails.clock!.detail, 'behind');
    assert.match(fails.clock!.fix!, 'timedatectl set-ntp true');
    assert.match(fails['reverse-dns']!.detail, 'vps-1234.provider.test');
    assert.match(fails['reverse-dns']!.fix!, 'PTR');
    assert.match(fails['domain forgotten.test']!.fix!, 'TXT');
    assert.match(fails['domain forgotten.test']!.fix!, 'MX bounces.forgotten.test');
    assert.match(fails['outbound-smtp']!.fix!, 'relay');
    assert.match(fails['public-url']!.fix!, 'reverse proxy');
    assert.ok(r.byName('domain acme.test').ok, 'the verified domain still passes');
  } finally {
    ntp.skewMs = 0;
    env.dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['mx.postmill.test']);
    await env.daemon.request('DELETE', `/domains/${forgotten.body.id}`);
  }
});

/** The name a DNS query asks about ('.' for the root zone): its question's labels, after the 12-byte header. */
function questionName(query: Buffer): string {
  const labels: string[] = [];
  for (let at = 12; at < query.length && query[at]! > 0; at += query[at]! + 1) labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('latin1'));
  return labels.length === 0 ? '.' : labels.join('.');
}

test('DNS that does not answer: the dns check says so, the checks that look names up are not checked, nothing suggests --probe-domain', async () => {
  // A resolver that never replies (a bound socket that reads and says nothing), a port where nothing
  // listens, and a DNS server that answers but resolves nothing of the Internet (no root zone).
  const silent = createSocket('udp4');
  const silentAsked: string[] = [];
  silent.on('message', (query) => silentAsked.push(questionName(query)));
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  const closed = createSocket('udp4');
  await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
  const closedPort = closed.address().port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const isolated = await startDnsServer();
  const ntpByName = `time.postmill.test:${ntp.address.split(':')[1]}`;
  try {
    const cases = [
      { servers: `127.0.0.1:${silent.address().port}`, says: `DNS does not answer: no reply from 127.0.0.1:${silent.address().port} (ETIMEOUT)` },
      { servers: `127.0.0.1:${closedPort}`, says: `DNS does not answer: no reply from 127.0.0.1:${closedPort} (ECONNREFUSED)` },
      { servers: isolated.address, says: `DNS does not answer for the Internet: ${isolated.address} answered ENOTFOUND` },
    ];
    for (const c of cases) {
      const r = await runCli(['doctor', '--json', '--config', env.daemon.configFile, '--probe-domain', 'probe.test', '--ntp-server', ntpByName], {
        POSTMILL_PUBLIC_URL: env.daemon.url,
        POSTMILL_DNS_SERVERS: c.servers,
      });
      assert.is(r.status, 1, r.stderr);
      const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
      const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
      assert.equal(Object.keys(byName), ['dns', 'outbound-smtp', 'hostname', 'reverse-dns', 'domain acme.test', 'alignment acme.test', 'tls-rpt signing key', 'public-url', 'clock']);
      assert.is(byName.dns!.ok, false);
      assert.match(byName.dns!.detail, c.says);
      assert.match(byName.dns!.fix!, 'dns.servers');
      for (const name of ['outbound-smtp', 'hostname', 'reverse-dns', 'domain acme.test', 'alignment acme.test', 'tls-rpt signing key', 'clock']) {
        assert.equal(byName[name], { name, ok: false, warning: false, detail: 'not checked: DNS does not answer (see the dns check)', fix: 'Fix the dns check first, then run the doctor again' });
      }
      assert.ok(byName['public-url']!.ok, 'what needs no DNS of dns.servers is still checked');
      assert.not.match(r.stdout, 'probe-domain');
    }
    // only the dns check waited for the silent resolver: no other check asked it and waited its own timeout
    assert.ok(silentAsked.length > 0 && silentAsked.every((name) => name === '.'), `the silent resolver was asked: ${silentAsked.join(', ')}`);
    // The relay is reached through the system's resolver: relay mode still checks it.
    const relay = await runCli(['doctor', '--json', '--config', env.daemon.configFile, '--ntp-server', ntp.address], {
      POSTMILL_PUBLIC_URL: env.daemon.url,
      POSTMILL_DNS_SERVERS: isolated.address,
      POSTMILL_DELIVERY_MODE: 'relay',
      POSTMILL_DELIVERY_RELAY: `smtp://127.0.0.1:${env.sink.port}`,
    });
    const relayChecks = (JSON.parse(relay.stdout) as { checks: Check[] }).checks;
    assert.ok(relayChecks.find((c) => c.name === 'outbound-smtp')!.ok, relay.stdout);
    assert.ok(relayChecks.find((c) => c.name === 'clock')!.ok, 'an NTP server given by address needs no DNS');
  } finally {
    silent.close();
    await isolated.close();
  }
});

test('relay mode checks the relay instead of port 25; the human output names each check', async () => {
  const relay = await doctor({ POSTMILL_DELIVERY_MODE: 'relay', POSTMILL_DELIVERY_RELAY: `smtp://127.0.0.1:${env.sink.port}` });
  assert.ok(relay.byName('outbound-smtp').ok);
  assert.match(relay.byName('outbound-smtp').detail, 'relay mode');
  const human = await runCli(['doctor', '--config', env.daemon.configFile, '--probe-domain', 'probe.test', '--ntp-server', ntp.address], {
    POSTMILL_PUBLIC_URL: env.daemon.url,
  });
  assert.is(human.status, 0, human.stdout + human.stderr);
  for (const name of ['dns', 'outbound-smtp', 'reverse-dns', 'domain acme.test', 'tls-rpt signing key', 'public-url', 'clock']) assert.match(human.stdout, `ok    ${name}:`);
  assert.match(human.stdout, 'warn  alignment acme.test:');
});

test('DMARC alignment and policy of each sending domain: a policy that acts passes, none or strict SPF warns, no record fails', async () => {
  const domains = ['reject.test', 'strict.test', 'nodmarc.test', 'sub.orgpolicy.test'];
  const registered = [];
  for (const domain of domains) registered.push(await env.verifySender(domain));
  env.dns.set('_dmarc.reject.test', 'TXT', ['v=DMARC1; p=reject; rua=mailto:d@reject.test']);
  env.dns.set('_dmarc.strict.test', 'TXT', ['v=DMARC1; p=quarantine; aspf=s']);
  env.dns.set('_dmarc.nodmarc.test', 'TXT', ['v=spf1 -all']);
  // a subdomain without a record of its own takes its organizational domain's policy
  env.dns.set('_dmarc.sub.orgpolicy.test', 'TXT', []);
  env.dns.set('_dmarc.orgpolicy.test', 'TXT', ['v=DMARC1; p=reject']);
  try {
    const r = await doctor();
    const reject = r.byName('alignment reject.test');
    assert.equal([reject.ok, reject.warning, reject.fix], [true, false, null]);
    assert.match(reject.detail, 'p=reject');
    const strict = r.byName('alignment strict.test');
    assert.equal([strict.ok, strict.warning], [true, true]);
    assert.match(strict.detail, 'DKIM (d=strict.test) align with From strict.test');
    assert.match(strict.detail, 'aspf=s: SPF of bounces.strict.test cannot align');
    const none = r.byName('alignment nodmarc.test');
    assert.equal([none.ok, none.warning], [false, false]);
    assert.match(none.detail, 'no DMARC record at _dmarc.nodmarc.test');
    assert.match(none.fix!, 'Gmail and Yahoo require');
    const org = r.byName('alignment sub.orgpolicy.test');
    assert.equal([org.ok, org.warning], [true, false]);
    assert.match(org.detail, 'DMARC at _dmarc.orgpolicy.test: p=reject');
    assert.is(r.status, 1, 'the domain without DMARC fails the run');
  } finally {
    for (const d of registered) await env.daemon.request('DELETE', `/domains/${d.id}`);
  }
});

test('a DKIM rotation: a new key not yet published is advice, the replaced key is required while its overlap lasts', async () => {
  const acme = (await env.daemon.request('GET', '/domains')).body.data.find((d: { domain: string }) => d.domain === 'acme.test');
  const rotated = await env.daemon.request('POST', `/domains/${acme.id}/rotate-key`);
  assert.is(rotated.status, 202, JSON.stringify(rotated.body));
  const [old, fresh] = rotated.body.records as { name: string; value: string; state: string }[];
  assert.is(fresh!.state, 'pending');
  const waiting = await doctor();
  assert.ok(waiting.byName('domain acme.test').ok, JSON.stringify(waiting.byName('domain acme.test')));
  assert.match(waiting.byName('domain acme.test').detail, `No TXT record found at ${fresh!.name}`);

  env.dns.set(fresh!.name, 'TXT', [fresh!.value]);
  assert.equal((await env.daemon.request('GET', `/domains/${acme.id}/verify`)).body.records.slice(0, 2).map((r: { state: string }) => r.state), ['active', 'retiring']);
  env.dns.set(old!.name, 'TXT', []);
  try {
    const removedEarly = await doctor();
    assert.is(removedEarly.status, 1);
    assert.not.ok(removedEarly.byName('domain acme.test').ok);
    assert.match(removedEarly.byName('domain acme.test').fix!, `TXT ${old!.name}`);
  } finally {
    env.dns.set(old!.name, 'TXT', [old!.value]);
  }
  assert.ok((await doctor()).byName('domain acme.test').ok);
});

test('the key that signs TLS-RPT report mails: its record is required while reports are on, given in full, and kept', async () => {
  assert.match(reportKey.name, /^pm\w+\._domainkey\.mx\.postmill\.test$/);
  const other = generateKeyPairSync('rsa', { modulusLength: 1024, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
    .publicKey.toString('base64');
  const cases = [
    { published: [], says: `No TXT record found at ${reportKey.name}` },
    { published: ['v=spf1 -all'], says: `The TXT record at ${reportKey.name} is not a DKIM RSA key record` },
    { published: [`v=DKIM1; k=rsa; s=tlsrpt; p=${other}`], says: `The DKIM key at ${reportKey.name} does not match` },
    { published: [reportKey.value.slice(0, 255)], says: `The DKIM key at ${reportKey.name} is truncated` },
  ];
  try {
    for (const c of cases) {
      env.dns.set(reportKey.name, 'TXT', c.published);
      const r = await doctor();
      const check = r.byName('tls-rpt signing key');
      assert.is(check.ok, false, JSON.stringify(check));
      assert.match(check.detail, c.says);
      assert.match(check.detail, 'receivers ignore reports');
      assert.equal(reportKeyRecordIn(check.fix), reportKey, 'the same key, its whole record to publish');
      assert.is(r.status, 1);
    }
  } finally {
    env.dns.set(reportKey.name, 'TXT', [reportKey.value]);
  }
  const ok = (await doctor()).byName('tls-rpt signing key');
  assert.equal([ok.ok, ok.warning, ok.fix], [true, false, null]);
  assert.match(ok.detail, `${reportKey.name} publishes the key that signs TLS-RPT report mails (d=mx.postmill.test)`);
  // no reports, no report mails to sign
  const off = await doctor({ POSTMILL_DELIVERY_TLS_REPORTS: 'false' });
  assert.equal(off.checks.filter((c) => c.name.startsWith('tls-rpt')), []);
  assert.is(off.status, 0);
});

test.run();
