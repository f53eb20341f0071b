import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { publishRecords, type RegisteredDomain } from './helpers/domains.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { smtpCode as smtpReply } from './helpers/smtp-client.js';

// Registering a domain is a claim; ownership is proved in DNS. Pending claims never block another
// project; the first project to verify owns the name and others' verify fails with a reason;
// inbound SMTP routes only verified domains (and the VERP addresses of mail actually sent from a
// domain); claims never proved expire after 7 days.

const fixtures = join(fileURLToPath(import.meta.url), '..', '..', '..', 'test', 'fixtures', 'inbound');
const FIXTURE_EMAIL_ID = '786e17de-f7ae-407a-bfc8-7db485549fe9';
const DAY = 24 * 3600_000;

let env: MailEnv;
let d: TestDaemon;
let owner: Keys;
let squatter: Keys;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  owner = d.createProject('owner');
  squatter = d.createProject('squatter');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

const register = (domain: string, project: Keys) => d.request('POST', '/domains', { domain }, { key: project.secretKey });
const verify = (id: string, project: Keys) => d.request('GET', `/domains/${id}/verify`, undefined, { key: project.secretKey });
const listOf = async (project: Keys) => (await d.request('GET', `/domains/project/${project.id}`, undefined, { key: project.secretKey })).body.data as RegisteredDomain[];

async function claim(domain: string, project: Keys): Promise<RegisteredDomain> {
  const r = await register(domain, project);
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** A message from the null sender (as bounces come) to `to`: the SMTP reply code. */
const smtpCode = (to: string, raw: string) => smtpReply(d.smtpPort, { from: '', to: [to] }, raw);

test("a squatter's pending claim blocks nobody; the first project to prove the name owns it; the other's verify fails with the reason", async () => {
  const squat = await claim('victim.test', squatter);
  const real = await claim('victim.test', owner);
  assert.is.not(real.records[0]!.name, squat.records[0]!.name, 'each claim has its own selector and key');

  // Both publish their DKIM record (they can: different selectors); the owner proves it first.
  publishRecords(env.dns, real.records);
  const proved = await verify(real.id, owner);
  assert.is(proved.body.status, 'verified');
  publishRecords(env.dns, squat.records);
  const late = await verify(squat.id, squatter);
  assert.is(late.status, 200);
  assert.is(late.body.status, 'pending');
  assert.match(late.body.failureReason, /verified by another project/);
  assert.is(late.body.records[0].verified, true, 'its record is there, the name is not its to take');

  const third = d.createProject('third');
  const refused = await register('VICTIM.test.', third);
  assert.is(refused.status, 409, 'a verified name is 409 for every other project');
  assert.match(refused.body.error.message, /verified by another project/);
  assert.is((await d.request('POST', '/v1/send', { to: 'x@rcpt.test', from: 'a@victim.test', subject: 's', body: 'b' }, { key: squatter.secretKey })).status, 403);
  assert.is((await d.request('POST', '/v1/send', { to: 'x@rcpt.test', from: 'a@victim.test', subject: 's', body: 'b' }, { key: owner.secretKey })).status, 200);

  // The owner lets it go: now the squatter's proof counts.
  assert.is((await d.request('DELETE', `/domains/${real.id}`, undefined, { key: owner.secretKey })).status, 204);
  assert.is((await verify(squat.id, squatter)).body.status, 'verified');
});

test('concurrent verifications of one name by two projects: exactly one owns it', async () => {
  const a = await claim('raced-verify.test', owner);
  const b = await claim('raced-verify.test', squatter);
  publishRecords(env.dns, a.records);
  publishRecords(env.dns, b.records);
  const results = await Promise.all([verify(a.id, owner), verify(b.id, squatter), verify(a.id, owner), verify(b.id, squatter)]);
  const verified = new Set(results.filter((r) => r.body.status === 'verified').map((r) => r.body.id));
  assert.is(verified.size, 1, JSON.stringify(results.map((r) => [r.body.id, r.body.status])));
});

test('inbound: a pending claim receives nothing, not even at bounces.<name>; a verified owner receives; late bounces of mail sent from a domain still arrive', async () => {
  await claim('claimed-only.test', squatter);
  for (const to of ['x@claimed-only.test', 'unsubscribe@bounces.claimed-only.test', 'anything@bounces.claimed-only.test', `b-${FIXTURE_EMAIL_ID}@bounces.claimed-only.test`]) {
    assert.is(await smtpCode(to, 'Subject: hi\r\n\r\nhi\r\n'), 550, to);
  }

  const mine = await claim('inbound-owner.test', owner);
  await claim('inbound-owner.test', squatter);
  publishRecords(env.dns, mine.records);
  assert.is((await verify(mine.id, owner)).body.status, 'verified');
  assert.is(await smtpCode('hello@inbound-owner.test', 'From: a@rcpt.test\r\nSubject: hi\r\n\r\nhi\r\n'), 250);
  const received = await eventually(async () => (await eventsNamed(d, 'email.received', owner.secretKey)).find((e) => e.data.to === 'hello@inbound-owner.test'), 8000, 'received');
  assert.ok(received);
  assert.is((await eventsNamed(d, 'email.received', squatter.secretKey)).length, 0, 'nothing for the squatter');

  // Mail sent while verified; the domain then loses its DKIM record (pending): its bounces still come back to the owner.
  const sent = await d.request('POST', '/v1/send', { to: 'bounced@rcpt.test', from: 'news@inbound-owner.test', subject: 's', body: 'b' }, { key: owner.secretKey });
  const emailId = sent.body.data.emails[0].email as string;
  await eventually(async () => (await eventsNamed(d, 'email.delivery', owner.secretKey)).find((e) => e.emailId === emailId), 8000, 'delivery');
  env.dns.clear(mine.records[0]!.name);
  assert.is((await verify(mine.id, owner)).body.status, 'pending');
  assert.is(await smtpCode('hello@inbound-owner.test', 'Subject: hi\r\n\r\nhi\r\n'), 550, 'no longer verified: no longer receives');
  assert.is(await smtpCode('unsubscribe@bounces.inbound-owner.test', 'Subject: hi\r\n\r\nhi\r\n'), 550);
  assert.is(await smtpCode(`b-${FIXTURE_EMAIL_ID}@bounces.inbound-owner.test`, 'Subject: hi\r\n\r\nhi\r\n'), 550, 'a VERP address of no email sent from it');
  const dsn = readFileSync(join(fixtures, 'postfix-dsn-user-unknown.eml'), 'utf8').replaceAll(FIXTURE_EMAIL_ID, emailId).replaceAll('shop.example', 'inbound-owner.test');
  assert.is(await smtpCode(`b-${emailId}@bounces.inbound-owner.test`, dsn), 250);
  const bounce = await eventually(async () => (await eventsNamed(d, 'email.bounce', owner.secretKey)).find((e) => e.emailId === emailId), 8000, 'bounce');
  assert.is(bounce.data.bounceType, 'Permanent');
});

// Last in this file: it moves the daemon's clock by a week.
test('claims never proved expire after 7 days; verified domains, and those that were verified once, stay', async () => {
  const stale = await claim('stale-claim.test', squatter);
  const kept = await claim('kept.test', owner);
  publishRecords(env.dns, kept.records);
  assert.is((await verify(kept.id, owner)).body.status, 'verified');
  const lost = await claim('lost.test', owner);
  publishRecords(env.dns, lost.records);
  assert.is((await verify(lost.id, owner)).body.status, 'verified');
  env.dns.clear(lost.records[0]!.name);
  assert.is((await verify(lost.id, owner)).body.status, 'pending');

  await env.advance(6 * DAY);
  await env.advance(10 * 60_000);
  assert.ok((await listOf(squatter)).some((x) => x.id === stale.id), 'six days old: still there');
  await env.advance(DAY);
  // A check still running when the clock jumped is rescheduled five minutes after it ends: move on by that much until the claim is gone.
  await eventually(async () => {
    if (!(await listOf(squatter)).some((x) => x.id === stale.id)) return true;
    await env.advance(6 * 60_000);
    return false;
  }, 20_000, 'stale claim expired');
  assert.is((await verify(stale.id, squatter)).status, 404);
  const ownerDomains = (await listOf(owner)).map((x) => x.domain);
  assert.ok(ownerDomains.includes('kept.test') && ownerDomains.includes('lost.test'), ownerDomains.join());
  assert.is((await register('stale-claim.test', owner)).status, 201, 'the name is free of it');
});

test.run();
