// The daemon's hostname, which every domain's bounce MX and SPF records name: GET /domains (the
// console's Domains page) and `postmill doctor` say when it is not a fully qualified name, does not
// resolve, or resolves to an address that is not this machine's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './helpers/cli.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

interface Check {
  name: string;
  ok: boolean;
  warning: boolean;
  detail: string;
  fix: string | null;
}

let vm: MailEnv;
let named: MailEnv;

test.before(async () => {
  [vm, named] = await Promise.all([startMailEnv({ config: { hostname: 'vm' } }), startMailEnv({ config: { hostname: 'mail.named.test' } })]);
  for (const env of [vm, named]) env.dns.set('.', 'NS', ['a.root-servers.test']);
});
test.after(async () => {
  await Promise.all([vm?.close(), named?.close()]);
});

async function hostnameOf(env: MailEnv) {
  const r = await env.daemon.request('GET', `/domains/project/${env.daemon.project.id}`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.hostname as { name: string; verdict: string; problem: string | null; fix: string | null };
}

async function doctorCheck(env: MailEnv): Promise<Check> {
  const r = await runCli(['doctor', '--json', '--config', env.daemon.configFile, '--ntp-server', '127.0.0.1:1'], { POSTMILL_PUBLIC_URL: env.daemon.url });
  const check = (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'hostname');
  assert.ok(check, r.stdout);
  return check!;
}

test('a hostname without a dot: the domain list and the doctor say it is not fully qualified, with the setting to change', async () => {
  const added = await vm.daemon.request('POST', '/domains', { domain: 'newcomer.test' });
  assert.is(added.body.records.find((r: { purpose: string }) => r.purpose === 'bounce').value, 'vm', 'what the records would point at');
  const found = await hostnameOf(vm);
  assert.equal([found.name, found.verdict], ['vm', 'not-qualified']);
  assert.match(found.problem!, 'vm (hostname) is not a fully qualified name (it has no dot)');
  assert.match(found.fix!, 'POSTMILL_HOSTNAME');
  const check = await doctorCheck(vm);
  assert.equal([check.ok, check.warning], [false, false]);
  assert.match(check.detail, 'not a fully qualified name');
  assert.match(check.fix!, 'Set hostname (POSTMILL_HOSTNAME)');
});

test('a fully qualified hostname: no A record fails, an address elsewhere warns (NAT may explain it), this machine\'s address passes', async () => {
  let found = await hostnameOf(named);
  assert.equal([found.verdict, found.problem !== null], ['unresolved', true]);
  assert.match(found.problem!, 'mail.named.test (hostname) does not resolve');
  let check = await doctorCheck(named);
  assert.equal([check.ok, check.detail], [false, found.problem]);

  // an address of no interface here (TEST-NET-1, never connected to)
  named.dns.set('mail.named.test', 'A', ['192.0.2.10']);
  check = await doctorCheck(named);
  assert.equal([check.ok, check.warning], [true, true]);
  assert.match(check.detail, 'resolves to 192.0.2.10, not an address of this machine');
  assert.match(check.detail, 'NAT');

  named.dns.set('mail.named.test', 'A', ['127.0.0.1']);
  check = await doctorCheck(named);
  assert.equal([check.ok, check.warning, check.fix], [true, false, null]);
  assert.match(check.detail, 'mail.named.test resolves to 127.0.0.1, an address of this machine');
  // the list's finding is kept a minute: a minute later it is the answer of now
  await named.advance(61_000);
  found = await hostnameOf(named);
  assert.equal([found.verdict, found.problem, found.fix], ['ok', null, null]);
});

test.run();
