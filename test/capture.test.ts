// Capture mode: nothing leaves the machine; each message is kept, signed, in the store and takes
// the path of a delivered one. A domain may be marked verified without DNS there, and only there.
import { readFileSync, writeFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { as, makeUser, signIn } from './helpers/console-session.js';
import { startFakeSpamd, type FakeScanner } from './helpers/scanners.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let spamd: FakeScanner;
let domainId: string;

test.before(async () => {
  spamd = await startFakeSpamd();
  env = await startMailEnv({ config: { delivery: { mode: 'capture' }, scanners: { spamd: spamd.address } }, sinkDomains: ['rcpt.test'] });
  env.daemon.cli('project', 'tracking', env.daemon.project.id, 'on');
  const created = await env.daemon.request('POST', '/domains', { domain: 'newcomer.test' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  domainId = created.body.id;
});
test.after(async () => {
  await env.close();
  await spamd.close();
});

/** The delivery mode the console is told (GET /auth/me), for a user signed in now. */
async function consoleMode(email: string): Promise<string> {
  const session = await signIn(env.daemon, email);
  const me = await env.daemon.request('GET', '/auth/me', undefined, as(env.daemon, session, null));
  assert.is(me.status, 200, JSON.stringify(me.body));
  return me.body.deliveryMode;
}

async function send(body: string): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', { to: 'friend@rcpt.test', from: 'hello@newcomer.test', subject: 'First light', body });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

test('the console is told it runs in capture mode (GET /auth/me)', async () => {
  makeUser(env.daemon, 'owner@newcomer.test', { id: env.daemon.project.id, role: 'OWNER' });
  assert.is(await consoleMode('owner@newcomer.test'), 'capture');
});

test('a domain is marked verified without DNS, labelled so; a check does not take the mark away in capture mode', async () => {
  const pending = await env.daemon.request('POST', '/v1/send', { to: 'friend@rcpt.test', from: 'hello@newcomer.test', subject: 'x', body: 'x' });
  assert.is(pending.status, 403, 'no sending from a pending domain');
  const marked = await env.daemon.request('POST', `/domains/${domainId}/mark-verified`);
  assert.is(marked.status, 200, JSON.stringify(marked.body));
  assert.is(marked.body.status, 'verified');
  assert.is(marked.body.verifiedWithoutDns, true);
  const checked = await env.daemon.request('GET', `/domains/${domainId}/verify`);
  assert.is(checked.body.status, 'verified');
  assert.is(checked.body.verifiedWithoutDns, true);
  const unknown = await env.daemon.request('POST', '/domains/0190a0a0-0000-7000-8000-000000000000/mark-verified');
  assert.is(unknown.status, 404);
});

test('a send is captured, signed, not sent: delivered, its attempt names the capture, its raw message verifies', async () => {
  const id = await send('<p>Hello, <a href="https://example.com/welcome">start here</a></p><p><a href="{{unsubscribeUrl}}">leave</a></p>');
  await env.idle();
  const email = (await env.daemon.request('GET', `/emails/${id}`)).body;
  assert.is(email.status, 'delivered');
  assert.equal(email.attempts.map((a: any) => [a.mx, a.outcome]), [['capture', 'delivered']]);
  assert.ok(email.events.some((e: any) => e.name === 'email.delivery'));
  assert.is(env.sink.messages.length, 0, 'nothing left the machine');

  const raw = await fetch(`${env.daemon.url}/emails/${id}/raw`, { headers: { authorization: `Bearer ${env.daemon.project.secretKey}` } });
  assert.is(raw.status, 200);
  assert.is(raw.headers.get('content-type'), 'message/rfc822');
  const bytes = Buffer.from(await raw.arrayBuffer());
  assert.match(bytes.subarray(0, 40).toString(), /^DKIM-Signature: /);
  const again = Buffer.from(await (await fetch(`${env.daemon.url}/emails/${id}/raw`, { headers: { authorization: `Bearer ${env.daemon.project.secretKey}` } })).arrayBuffer());
  assert.ok(again.equals(bytes), 'the captured message is served as it was captured, signature included');

  const checks = await env.daemon.request('GET', `/emails/${id}/checks`);
  assert.is(checks.status, 200, JSON.stringify(checks.body));
  assert.equal(checks.body.dkim.map((d: any) => [d.domain, d.result, d.keyFrom]), [['newcomer.test', 'pass', 'domain records']]);
  assert.equal(checks.body.spam, { spam: false, score: 0.1, threshold: 5, rules: ['MISSING_DATE'] });

  // the tracked link of the captured message works when clicked
  const parsed = await simpleParser(bytes);
  const href = /href="([^"]+)"/.exec(String(parsed.html))![1]!.replace(/&amp;/g, '&');
  const click = await fetch(env.daemon.url + new URL(href).pathname, { redirect: 'manual' });
  assert.is(click.status, 302);
  assert.is(click.headers.get('location'), 'https://example.com/welcome');
  assert.ok((await eventsNamed(env.daemon, 'email.click')).some((e) => e.emailId === id));
  // and so does its unsubscribe link
  const leave = [...String(parsed.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!).find((h) => h.includes('/u/'));
  assert.ok(leave, String(parsed.html));
  const page = await fetch(env.daemon.url + new URL(leave).pathname, { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.is(page.status, 200);
  const contact = await env.daemon.request('GET', `/contacts/${email.contactId}`);
  assert.is(contact.body.subscribed, false);
});

test('a rotation in capture mode: the new key signs from the next check without DNS, and the captured message verifies with it', async () => {
  const rotated = await env.daemon.request('POST', `/domains/${domainId}/rotate-key`);
  assert.is(rotated.status, 202, JSON.stringify(rotated.body));
  const fresh = rotated.body.records.find((r: any) => r.state === 'pending');
  const checked = await env.daemon.request('GET', `/domains/${domainId}/verify`);
  assert.equal(
    checked.body.records.filter((r: any) => r.purpose === 'dkim').map((r: any) => [r.selector, r.state]),
    [
      [fresh.selector, 'active'],
      [rotated.body.records[0].selector, 'retiring'],
    ],
  );
  assert.is(checked.body.verifiedWithoutDns, true, 'the mark stays');
  const id = await send('<p>After the rotation</p>');
  await env.idle();
  const checks = await env.daemon.request('GET', `/emails/${id}/checks`);
  assert.equal(checks.body.dkim.map((d: any) => [d.selector, d.result, d.keyFrom]), [[fresh.selector, 'pass', 'domain records']]);
});

test('spam content scores with the rules that fired', async () => {
  const id = await send('<p>SPAM-MARKER</p>');
  await env.idle();
  const checks = await env.daemon.request('GET', `/emails/${id}/checks`);
  assert.equal(checks.body.spam, { spam: true, score: 15, threshold: 5, rules: ['POSTMILL_MARKER', 'MISSING_DATE'] });
});

test('outside capture mode the mark is refused (409), and a DNS check replaces a mark made in capture mode', async () => {
  await env.daemon.stop();
  const config = JSON.parse(readFileSync(env.daemon.configFile, 'utf8'));
  config.delivery.mode = 'mx';
  writeFileSync(env.daemon.configFile, JSON.stringify(config));
  await env.daemon.restart();
  const refused = await env.daemon.request('POST', `/domains/${domainId}/mark-verified`);
  assert.is(refused.status, 409, JSON.stringify(refused.body));
  assert.match(refused.body.error.message, 'capture mode');
  const checked = await env.daemon.request('GET', `/domains/${domainId}/verify`);
  assert.is(checked.body.status, 'pending', 'its records are not in DNS');
  assert.is(checked.body.verifiedWithoutDns, false);
  assert.is(await consoleMode('owner@newcomer.test'), 'mx', 'the console is told the mode of the daemon that answers');
});

test.run();
