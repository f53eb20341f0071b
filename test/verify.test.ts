import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server.js';
import { ADMIN } from './helpers/mail-env.js';

let d: TestDaemon;
let dns: TestDnsServer;

/** A domain that exists (NS) and takes mail (MX), with a website. */
function mailDomain(name: string): void {
  dns.set(name, 'NS', [`ns1.${name}`]);
  dns.set(name, 'MX', [{ exchange: `mx.${name}`, priority: 10 }]);
  dns.set(name, 'A', ['192.0.2.1']);
}

test.before(async () => {
  dns = await startDnsServer();
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, dns: { servers: [dns.address] }, adminToken: ADMIN, testHooks: true } });
  mailDomain('company.test');
  mailDomain('gmail.com');
  mailDomain('mailinator.com');
  mailDomain('duck.com');
  mailDomain('xn--bcher-kva.test');
  mailDomain('gmial.com');
  dns.set('implicit.test', 'NS', ['ns1.implicit.test']);
  dns.set('implicit.test', 'AAAA', ['2001:db8::1']);
  dns.set('nullmx.test', 'NS', ['ns1.nullmx.test']);
  dns.set('nullmx.test', 'MX', [{ exchange: '.', priority: 0 }]);
  dns.set('nullmx.test', 'A', ['192.0.2.2']);
  dns.set('zone.test', 'NS', ['ns1.zone.test']);
  dns.set('mail.zone.test', 'MX', [{ exchange: 'mx.zone.test', priority: 10 }]);
  dns.set('nomail.test', 'NS', ['ns1.nomail.test']);
});
test.after(async () => {
  await d.dispose();
  await dns.close();
});

async function verify(email: string) {
  const r = await d.request('POST', '/v1/verify', { email });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.success, true);
  return r.body.data;
}

const FLAGS = ['valid', 'isDisposable', 'isAlias', 'isTypo', 'isPlusAddressed', 'isPersonalEmail', 'domainExists', 'hasWebsite', 'hasMxRecords'];

test('a company address with NS, MX and a website is valid with nothing to explain', async () => {
  const v = await verify('ann@company.test');
  assert.equal(v, {
    email: 'ann@company.test',
    valid: true,
    isDisposable: false,
    isAlias: false,
    isTypo: false,
    isPlusAddressed: false,
    isPersonalEmail: false,
    domainExists: true,
    hasWebsite: true,
    hasMxRecords: true,
    reasons: [],
  });
});

test('every field is a boolean and every false or flag has a reason', async () => {
  for (const email of ['ann+news@gmail.com', 'x@mailinator.com', 'y@duck.com', 'z@gmial.com', 'a@nomail.test', 'b@nowhere.test', 'c@implicit.test', 'd@nullmx.test']) {
    const v = await verify(email);
    for (const flag of FLAGS) assert.type(v[flag], 'boolean', `${email} ${flag}`);
    const explained = FLAGS.filter((f) => (f.startsWith('is') ? v[f] : !v[f])).length;
    assert.ok(v.reasons.length >= Math.min(explained, 1), `${email}: ${JSON.stringify(v)}`);
    if (!v.valid || v.isDisposable || v.isAlias || v.isTypo || v.isPlusAddressed || v.isPersonalEmail) assert.ok(v.reasons.length > 0, email);
  }
});

test('flags: personal and plus-addressed, disposable, alias, typo with a suggestion', async () => {
  const personal = await verify('ann+news@gmail.com');
  assert.is(personal.valid, true);
  assert.is(personal.isPersonalEmail, true);
  assert.is(personal.isPlusAddressed, true);
  assert.ok(personal.reasons.some((r: string) => r.includes('ann@gmail.com')), personal.reasons.join('|'));
  assert.not.ok('suggestedEmail' in personal);

  const disposable = await verify('x@mailinator.com');
  assert.is(disposable.isDisposable, true);
  assert.is(disposable.isPersonalEmail, false, 'a disposable domain is not a personal address');
  assert.ok(disposable.reasons.some((r: string) => /disposable/.test(r)));

  const alias = await verify('y@duck.com');
  assert.is(alias.isAlias, true);
  assert.ok(alias.reasons.some((r: string) => /forwarding/.test(r)));

  const typo = await verify('z@gmial.com');
  assert.is(typo.isTypo, true);
  assert.is(typo.suggestedEmail, 'z@gmail.com');
  assert.ok(typo.reasons.some((r: string) => /typo of gmail\.com/.test(r)));
  const typoTld = await verify('z@hotmail.con');
  assert.is(typoTld.suggestedEmail, 'z@hotmail.com');
});

test('DNS: no NS is invalid; A/AAAA serve as implicit MX; a null MX refuses mail; a subdomain belongs to its zone', async () => {
  const nowhere = await verify('b@nowhere.test');
  assert.is(nowhere.valid, false);
  assert.is(nowhere.domainExists, false);
  assert.ok(nowhere.reasons.some((r: string) => /no NS records/.test(r)));

  const noMail = await verify('a@nomail.test');
  assert.is(noMail.domainExists, true);
  assert.is(noMail.valid, false);
  assert.ok(noMail.reasons.some((r: string) => /no MX, A or AAAA/.test(r)));

  const implicit = await verify('c@implicit.test');
  assert.is(implicit.valid, true);
  assert.is(implicit.hasMxRecords, false);
  assert.is(implicit.hasWebsite, true);
  assert.ok(implicit.reasons.some((r: string) => /implicit MX/.test(r)));

  const nullMx = await verify('d@nullmx.test');
  assert.is(nullMx.valid, false);
  assert.is(nullMx.hasMxRecords, false);
  assert.ok(nullMx.reasons.some((r: string) => /null MX/.test(r)));

  const sub = await verify('e@mail.zone.test');
  assert.is(sub.domainExists, true, 'NS of the zone above');
  assert.is(sub.valid, true);
});

test('syntax: invalid addresses are valid: false with a reason, not an error; internationalised domains are looked up in punycode', async () => {
  for (const email of ['no-at-sign', 'two@@signs.test', 'a@-bad-.test', 'a b@c.test']) {
    const v = await verify(email);
    assert.is(v.valid, false);
    assert.is(v.email, email);
    assert.match(v.reasons[0], /syntax/);
  }
  const idn = await verify('ann@bücher.test');
  assert.is(idn.email, 'ann@bücher.test');
  assert.is(idn.valid, true);
});

test('answers are kept 10 minutes per domain', async () => {
  mailDomain('cached.test');
  assert.is((await verify('a@cached.test')).valid, true);
  dns.clear('cached.test');
  assert.is((await verify('b@cached.test')).valid, true, 'the kept answer');
  assert.is((await d.request('POST', '/_test/clock', { advanceMs: 9 * 60_000 }, { key: ADMIN })).status, 200);
  assert.is((await verify('c@cached.test')).valid, true, 'still kept after 9 minutes');
  await d.request('POST', '/_test/clock', { advanceMs: 2 * 60_000 }, { key: ADMIN });
  const after = await verify('d@cached.test');
  assert.is(after.valid, false, 'asked again after 10 minutes');
  assert.is(after.domainExists, false);
});

test('422 without an email string; 401 for the public key; a disabled project may still verify', async () => {
  for (const body of [{}, { email: 5 }, { email: '' }, { email: 'a'.repeat(321) }]) {
    const r = await d.request('POST', '/v1/verify', body);
    assert.is(r.status, 422, JSON.stringify(body));
    assert.is(r.body.error.errors[0].field, 'email');
  }
  assert.is((await d.request('POST', '/v1/verify', { email: 'a@company.test' }, { key: d.project.publicKey })).status, 401);
  const p = d.createProject('disabled-verify');
  d.cli('project', 'disable', p.id);
  assert.is((await d.request('POST', '/v1/verify', { email: 'a@company.test' }, { key: p.secretKey })).status, 200);
});

test('an unreachable DNS server is a reason, never a 500', async () => {
  const dead = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, dns: { servers: ['127.0.0.1:9'] } } });
  try {
    const r = await dead.request('POST', '/v1/verify', { email: 'ann@company.test' });
    assert.is(r.status, 200);
    assert.is(r.body.data.valid, false);
    assert.ok(r.body.data.reasons.some((x: string) => /DNS could not be asked/.test(x)), JSON.stringify(r.body));
    const again = await dead.request('POST', '/v1/verify', { email: 'ann@company.test' });
    assert.is(again.status, 200, 'a failure is kept briefly, and does not break the next call');
  } finally {
    await dead.dispose();
  }
});

test.run();
