import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { publishRecords, verifyDomain, type RegisteredDomain } from './helpers/domains.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { smtpCode } from './helpers/smtp-client.js';

// A verified domain covers the names under it: no other project adds, proves or marks (capture
// mode) a subdomain of it, and inbound mail to such a name goes to the parent's owner. The capture
// mode daemon is the one where a mark without DNS would otherwise hand another project's mail away.

let env: MailEnv;
let d: TestDaemon;
let owner: Keys;
let squatter: Keys;

test.before(async () => {
  env = await startMailEnv({ config: { delivery: { mode: 'capture' } }, sinkDomains: ['rcpt.test'] });
  d = env.daemon;
  owner = d.createProject('owner');
  squatter = d.createProject('squatter');
});
test.after(async () => env.close());

const register = (domain: string, project: Keys) => d.request('POST', '/domains', { domain }, { key: project.secretKey });
const verify = (id: string, project: Keys) => d.request('GET', `/domains/${id}/verify`, undefined, { key: project.secretKey });
const mark = (id: string, project: Keys) => d.request('POST', `/domains/${id}/mark-verified`, undefined, { key: project.secretKey });

async function claim(domain: string, project: Keys): Promise<RegisteredDomain> {
  const r = await register(domain, project);
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** Sends a message to `to` over SMTP; once accepted, waits for the project that received it (its `email.received`). */
async function receiverOf(to: string): Promise<'owner' | 'squatter'> {
  assert.is(await smtpCode(d.smtpPort, { from: 'a@rcpt.test', to: [to] }, `From: a@rcpt.test\r\nTo: ${to}\r\nSubject: hi\r\n\r\nhi\r\n`), 250, to);
  return eventually(async () => {
    for (const [name, keys] of [['owner', owner], ['squatter', squatter]] as const) {
      if ((await eventsNamed(d, 'email.received', keys.secretKey)).some((e) => e.data.to === to)) return name;
    }
    return undefined;
  }, 8000, `email.received for ${to}`);
}

test('a subdomain of another project\'s verified domain is refused to add (409), at any depth; its owner adds its own', async () => {
  await verifyDomain(d, env.dns, 'acme.test', owner.secretKey);
  for (const name of ['mail.acme.test', 'deep.mail.ACME.test.']) {
    const refused = await register(name, squatter);
    assert.is(refused.status, 409, JSON.stringify(refused.body));
    assert.is(refused.body.error.code, 'CONFLICT');
    assert.match(refused.body.error.message, 'lies under acme.test, which is verified by another project');
  }
  assert.is((await register('notacme.test', squatter)).status, 201, 'a name that merely ends alike is not under it');
  const own = await verifyDomain(d, env.dns, 'news.acme.test', owner.secretKey);
  assert.is(own.domain, 'news.acme.test');
});

test('a subdomain claimed before the parent was proved: no mark without DNS, no proof in DNS once the parent is verified', async () => {
  const sub = await claim('shop.brand.test', squatter);
  await verifyDomain(d, env.dns, 'brand.test', owner.secretKey);

  const marked = await mark(sub.id, squatter);
  assert.is(marked.status, 409, JSON.stringify(marked.body));
  assert.match(marked.body.error.message, 'lies under brand.test');

  publishRecords(env.dns, sub.records);
  const checked = await verify(sub.id, squatter);
  assert.is(checked.status, 200);
  assert.is(checked.body.status, 'pending');
  assert.match(checked.body.failureReason, 'lies under brand.test, which is verified by another project');
  assert.is(await receiverOf('x@shop.brand.test'), 'owner');
});

test('a subdomain marked verified before the parent was proved: the parent\'s owner receives its mail, and its next check takes the mark away', async () => {
  const sub = await claim('mail.corp.test', squatter);
  assert.is((await mark(sub.id, squatter)).body.status, 'verified');
  assert.is(await receiverOf('early@mail.corp.test'), 'squatter', 'nobody had proved corp.test yet');

  await verifyDomain(d, env.dns, 'corp.test', owner.secretKey);
  assert.is(await receiverOf('late@mail.corp.test'), 'owner', 'the outermost verified name decides');
  assert.is(await receiverOf('hello@corp.test'), 'owner');

  publishRecords(env.dns, sub.records);
  const checked = await verify(sub.id, squatter);
  assert.is(checked.body.status, 'pending', JSON.stringify(checked.body));
  assert.match(checked.body.failureReason, 'lies under corp.test');
});

test.run();
