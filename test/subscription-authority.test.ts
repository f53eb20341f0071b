import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rawHeader, sendAndReceive, unsubscribePath } from './helpers/delivered.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { smtpCode } from './helpers/smtp-client.js';

// The public key never reverses an unsubscribe that came from the contact (one-click, link,
// mailto), a bounce or a complaint; the secret key may resubscribe but never lifts a suppression;
// a suppressed address never gets MARKETING or HEADLESS content by any route, /v1/send included,
// while TRANSACTIONAL content still goes.

const fixtures = join(fileURLToPath(import.meta.url), '..', '..', '..', 'test', 'fixtures', 'inbound');
const FIXTURE_EMAIL_ID = '786e17de-f7ae-407a-bfc8-7db485549fe9';

let env: MailEnv;
const templates: Record<string, string> = {};

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('subs.test');
  env.routeToSink('rcpt.test');
  for (const type of ['MARKETING', 'HEADLESS', 'TRANSACTIONAL']) {
    const t = await env.daemon.request('POST', '/templates', { name: type, subject: type, body: `<p>${type}</p>`, from: 'news@subs.test', type });
    assert.is(t.status, 201, JSON.stringify(t.body));
    templates[type] = t.body.id;
  }
});
test.after(async () => env.close());

const contactOf = async (id: string) => (await env.daemon.request('GET', `/contacts/${id}`)).body;
const track = (email: string, subscribed: boolean, key = env.daemon.project.publicKey) =>
  env.daemon.request('POST', key.startsWith('pk_') ? '/v1/track' : '/events/track', { email, event: 'came-back', subscribed }, { key });
const sendTemplate = (to: string, type: string, extra: Record<string, unknown> = {}) =>
  env.daemon.request('POST', '/v1/send', { to, template: templates[type], ...extra });
/** Sends a MARKETING mail to `to` and answers what arrived and the ids (the sink accepts it). */
const delivered = (to: string) => sendAndReceive(env, { to, template: templates.MARKETING, subscribed: true });

async function smtpSend(from: string, to: string, raw: string): Promise<void> {
  assert.is(await smtpCode(env.daemon.smtpPort, { from, to: [to] }, raw), 250);
}

/** The public key's `subscribed: true` records its event and leaves the contact unsubscribed. */
async function assertPublicKeyCannotResubscribe(email: string, contactId: string): Promise<void> {
  const before = (await eventsNamed(env.daemon, 'contact.subscribed')).filter((e) => e.contactId === contactId).length;
  const r = await track(email, true);
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.data.contact, contactId);
  assert.is((await contactOf(contactId)).subscribed, false, `${email} stays unsubscribed`);
  assert.ok((await eventsNamed(env.daemon, 'came-back')).some((e) => e.contactId === contactId && e.id === r.body.data.event), 'the event is recorded');
  assert.is((await eventsNamed(env.daemon, 'contact.subscribed')).filter((e) => e.contactId === contactId).length, before, 'no contact.subscribed');
  const refused = await sendTemplate(email, 'MARKETING');
  assert.is(refused.status, 400, 'MARKETING is refused to the unsubscribed contact');
}

test('a one-click unsubscribe: the public key cannot undo it; the secret key can, and then the public key may again', async () => {
  const { parsed, contactId } = await delivered('clicked@rcpt.test');
  const done = await fetch(env.daemon.url + unsubscribePath(parsed), { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.is(done.status, 200);
  await assertPublicKeyCannotResubscribe('clicked@rcpt.test', contactId);
  await assertPublicKeyCannotResubscribe('CLICKED@rcpt.test', contactId);

  const patched = await env.daemon.request('PATCH', `/contacts/${contactId}`, { subscribed: true });
  assert.is(patched.body.subscribed, true, 'the secret key may resubscribe');
  await env.daemon.request('PATCH', `/contacts/${contactId}`, { subscribed: false });
  assert.is((await track('clicked@rcpt.test', true)).status, 200);
  assert.is((await contactOf(contactId)).subscribed, true, 'an unsubscribe made through the API is the public key to undo');
});

test('the List-Unsubscribe mailto: the public key cannot undo it', async () => {
  const { parsed, contactId } = await delivered('mailed@rcpt.test');
  const mailto = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(rawHeader(parsed, 'list-unsubscribe'))!;
  await smtpSend('mailed@rcpt.test', mailto[1]!, `From: mailed@rcpt.test\r\nTo: ${mailto[1]}\r\nSubject: ${mailto[2]}\r\n\r\nunsubscribe\r\n`);
  await eventually(async () => (await contactOf(contactId)).subscribed === false, 8000, 'mailto unsubscribe');
  await assertPublicKeyCannotResubscribe('mailed@rcpt.test', contactId);
});

test('a hard bounce: the public key cannot undo it; the secret key resubscribes but MARKETING and HEADLESS never go, TRANSACTIONAL does', async () => {
  env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone@') ? { code: 550, message: '5.1.1 No such user' } : null));
  const sent = await sendTemplate('gone@rcpt.test', 'MARKETING', { subscribed: true });
  assert.is(sent.status, 200);
  const contactId = sent.body.data.emails[0].contact.id as string;
  const unsub = await eventually(async () => (await eventsNamed(env.daemon, 'contact.unsubscribed')).find((e) => e.contactId === contactId), 8000, 'bounce');
  assert.equal(unsub.data, { reason: 'bounce' });
  env.sink.onRecipient(() => null); // the mailbox works again: anything still sent would arrive
  await assertPublicKeyCannotResubscribe('gone@rcpt.test', contactId);

  // The path: public key `subscribed: true`, then a MARKETING template.
  assert.is((await sendTemplate('gone@rcpt.test', 'MARKETING')).status, 400);

  const resubscribed = await track('gone@rcpt.test', true, env.daemon.project.secretKey);
  assert.is(resubscribed.status, 200);
  assert.is((await contactOf(contactId)).subscribed, true, 'the secret key may resubscribe');
  const before = env.sink.messages.length;
  for (const type of ['MARKETING', 'HEADLESS']) {
    for (const extra of [{}, { subscribed: true }]) {
      const r = await sendTemplate('gone@rcpt.test', type, extra);
      assert.is(r.status, 400, `${type} ${JSON.stringify(extra)}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error.message, /suppressed/);
    }
  }
  const many = await env.daemon.request('POST', '/v1/send', { to: ['fine@rcpt.test', 'GONE@rcpt.test'], template: templates.MARKETING, subscribed: true });
  assert.is(many.status, 400, 'one suppressed recipient refuses the request');
  assert.is((await env.daemon.request('GET', '/contacts?search=fine%40rcpt.test')).body.data.length, 0, 'and writes nothing');
  const receipt = await sendTemplate('gone@rcpt.test', 'TRANSACTIONAL');
  assert.is(receipt.status, 200, 'transactional content still goes');
  const arrived = await env.sink.waitFor(before + 1, 8000);
  assert.equal(arrived.slice(before).map((m) => m.rcptTo), [['gone@rcpt.test']]);
  assert.match(arrived[before]!.raw.toString(), /TRANSACTIONAL/);
});

test('a complaint: the public key cannot undo it, and MARKETING is refused even with subscribed: true', async () => {
  const { emailId, contactId } = await delivered('angry@rcpt.test');
  const report = readFileSync(join(fixtures, 'arf-yahoo.eml'), 'utf8').replaceAll(FIXTURE_EMAIL_ID, emailId).replaceAll('shop.example', 'subs.test');
  await smtpSend('feedbackloop@fbl.test', 'fbl@subs.test', report);
  await eventually(async () => (await contactOf(contactId)).subscribed === false, 8000, 'complaint');
  await assertPublicKeyCannotResubscribe('angry@rcpt.test', contactId);
  const r = await sendTemplate('angry@rcpt.test', 'MARKETING', { subscribed: true });
  assert.is(r.status, 400);
  assert.match(r.body.error.message, /suppressed after a complaint/);
  assert.is((await contactOf(contactId)).subscribed, false, 'the refused send changed nothing');
});

test.run();
