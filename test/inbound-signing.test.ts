// Only outbound mail is ever signed: a received message is shown as it came in, with the verdicts
// of its own authentication, so mail forging the project's own domain never gets its signature
// through GET /emails/{id}/raw or a "pass" from /checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { smtpSend } from './helpers/inbound.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ senders: ['sender.test'], sinkDomains: ['rcpt.test'] });
});
test.after(async () => env.close());

const raw = async (id: string) => {
  const r = await fetch(`${env.daemon.url}/emails/${id}/raw`, { headers: { authorization: `Bearer ${env.daemon.project.secretKey}` } });
  assert.is(r.status, 200);
  return r.text();
};
const checks = async (id: string) => {
  const r = await env.daemon.request('GET', `/emails/${id}/checks`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body;
};

test('a received message forging the project\'s From: is shown as received: unsigned, and /checks does not say pass', async () => {
  const forged = [
    'From: The CEO <ceo@sender.test>',
    'To: support@sender.test',
    'Subject: Urgent wire transfer',
    'Message-ID: <forged-1@elsewhere.test>',
    'Date: Sat, 28 Nov 2026 10:00:00 +0000',
    '',
    'Please wire the money today.',
    '',
  ].join('\r\n');
  assert.match(await smtpSend(env.daemon.smtpPort, 'ceo@sender.test', ['support@sender.test'], forged), /^250/);
  const received = await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.subject === 'Urgent wire transfer'), 8000, 'email.received');

  const shown = await raw(received.emailId);
  assert.not.match(shown, /^DKIM-Signature:/im, 'no signature of ours on a received message');
  assert.is(shown, forged, 'the bytes as they came in');

  const verdicts = await checks(received.emailId);
  assert.equal(verdicts.dkim, [], 'the message carries no signature to verify');
  assert.equal(verdicts.received, { spf: received.data.spfVerdict, dkim: received.data.dkimVerdict, dmarc: received.data.dmarcVerdict });
  assert.is.not(verdicts.received.dkim, 'PASS');
  assert.is.not(verdicts.received.dmarc, 'PASS');
});

test('outbound mail is still shown signed as its delivery signs it, with no receipt verdicts', async () => {
  const sent = await env.daemon.request('POST', '/v1/send', { to: 'ann@rcpt.test', from: 'hello@sender.test', subject: 'Welcome', body: '<p>Hi</p>' });
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  const id = sent.body.data.emails[0].email as string;
  assert.match(await raw(id), /^DKIM-Signature: .*d=sender\.test/s);
  const verdicts = await checks(id);
  assert.equal(verdicts.dkim.map((d: { domain: string; result: string }) => [d.domain, d.result]), [['sender.test', 'pass']]);
  assert.is(verdicts.received, null);
});

test.run();
