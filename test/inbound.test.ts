import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { within } from './helpers/eventually.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { metric } from './helpers/metrics.js';

const fixtures = join(fileURLToPath(import.meta.url), '..', '..', '..', 'test', 'fixtures', 'inbound');
const FIXTURE_EMAIL_ID = '786e17de-f7ae-407a-bfc8-7db485549fe9';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv();
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

/** Sends one raw message over SMTP to the daemon's listener; answers the server's reply or throws its error. */
async function smtpSend(from: string, to: string[], raw: string | Buffer): Promise<string> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: env.daemon.smtpPort, secure: false, ignoreTLS: true, name: 'client.test' });
  try {
    const info = await transport.sendMail({ envelope: { from, to }, raw });
    return info.response;
  } finally {
    transport.close();
  }
}

async function smtpError(from: string, to: string[], raw: string | Buffer): Promise<{ responseCode?: number; message: string }> {
  try {
    await smtpSend(from, to, raw);
  } catch (err) {
    return err as { responseCode?: number; message: string };
  }
  throw new Error('expected the server to refuse');
}

/** Sends a real email through the API and waits for it to reach the sink; answers its id and contact. */
async function sentEmail(to: string): Promise<{ emailId: string; contactId: string }> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'news@sender.test', subject: 'Deals', body: '<p>Deals</p>', subscribed: true });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const { email, contact } = r.body.data.emails[0];
  await eventually(async () => (await eventsNamed(env.daemon, 'email.delivery')).find((e) => e.emailId === email), 8000, 'delivery');
  return { emailId: email, contactId: contact.id };
}

const fixture = (name: string, emailId: string) =>
  readFileSync(join(fixtures, name), 'utf8').replaceAll(FIXTURE_EMAIL_ID, emailId).replaceAll('shop.example', 'sender.test');

test('mail for domains that are not ours is refused at RCPT with 550: never an open relay', async () => {
  const err = await smtpError('someone@client.test', ['victim@elsewhere.test'], 'Subject: relay?\r\n\r\nhi\r\n');
  assert.is(err.responseCode, 550);
  const unverified = await env.daemon.request('POST', '/domains', { domain: 'pending.test' });
  assert.is(unverified.status, 201);
  const pending = await smtpError('someone@client.test', ['x@pending.test'], 'Subject: x\r\n\r\nhi\r\n');
  assert.is(pending.responseCode, 550, 'an unverified domain does not receive');
});

test('a DSN to the VERP address is a permanent bounce: event, unsubscription with reason bounce', async () => {
  const { emailId, contactId } = await sentEmail('alice@rcpt.test');
  const reply = await smtpSend('', [`b-${emailId}@bounces.sender.test`], fixture('postfix-dsn-user-unknown.eml', emailId));
  assert.match(reply, /^250/);
  const bounce = await eventually(async () => (await eventsNamed(env.daemon, 'email.bounce')).find((e) => e.emailId === emailId), 8000, 'bounce');
  assert.is(bounce.data.bounceType, 'Permanent');
  assert.type(bounce.data.bouncedAt, 'string');
  const unsub = await eventually(async () => (await eventsNamed(env.daemon, 'contact.unsubscribed')).find((e) => e.contactId === contactId), 8000, 'contact.unsubscribed after the bounce');
  assert.equal(unsub.data, { reason: 'bounce' });
});

test('an ARF report is a complaint: email.complaint, contact unsubscribed with reason complaint', async () => {
  const { emailId, contactId } = await sentEmail('wendy@rcpt.test');
  await smtpSend('feedbackloop@fbl.test', ['fbl@sender.test'], fixture('arf-yahoo.eml', emailId));
  const complaint = await eventually(async () => (await eventsNamed(env.daemon, 'email.complaint')).find((e) => e.emailId === emailId), 8000, 'complaint');
  assert.type(complaint.data.complainedAt, 'string');
  const unsub = await eventually(async () => (await eventsNamed(env.daemon, 'contact.unsubscribed')).find((e) => e.contactId === contactId), 8000, 'contact.unsubscribed after the complaint');
  assert.equal(unsub.data, { reason: 'complaint' });
});

test('a report that quotes only the Message-ID finds its email: ours and one the caller set', async () => {
  const custom = await env.daemon.request('POST', '/v1/send', {
    to: 'carol@rcpt.test',
    from: 'news@sender.test',
    subject: 'Deals',
    body: '<p>Deals</p>',
    headers: { 'Message-ID': '<campaign-42.carol@sender.test>' },
  });
  assert.is(custom.status, 200, JSON.stringify(custom.body));
  const own = await sentEmail('dave@rcpt.test');
  const cases = [
    { emailId: custom.body.data.emails[0].email as string, messageId: '<campaign-42.carol@sender.test>' },
    { emailId: own.emailId, messageId: await sentMessageId(own.emailId) },
  ];
  for (const { emailId, messageId } of cases) {
    // no VERP address and no X-Postmill-Email-Id: only the quoted Message-ID names the email
    const report = fixture('arf-yahoo.eml', emailId)
      .replace(/^Original-Mail-From: .*\n/m, '')
      .replace(/^X-Postmill-Email-Id: .*\n/m, '')
      .replace(/^Message-ID: <[^>]*@mta\.postmill\.test>$/m, `Message-ID: ${messageId}`);
    await smtpSend('feedbackloop@fbl.test', ['fbl@sender.test'], report);
    await eventually(async () => (await eventsNamed(env.daemon, 'email.complaint')).find((e) => e.emailId === emailId), 8000, `complaint for ${messageId}`);
  }
});

/** The Message-ID header of a delivered email, as the sink received it. */
async function sentMessageId(emailId: string): Promise<string> {
  const mail = await eventually(async () => env.sink.messages.find((m) => m.raw.includes(emailId)), 8000, 'the message at the sink');
  const header = /^Message-ID: (<[^>]+>)/im.exec(mail.raw.toString());
  assert.ok(header, 'a Message-ID header');
  return header[1]!;
}

test('an auto-reply to the VERP address never bounces', async () => {
  const { emailId } = await sentEmail('away@rcpt.test');
  const autoReplies = () => metric(env.daemon, 'postmill_inbound_messages_total', { class: 'auto-reply' });
  const before = await autoReplies();
  await smtpSend('away@rcpt.test', [`b-${emailId}@bounces.sender.test`], fixture('out-of-office.eml', emailId));
  // its 250 came once it was stored and its processing queued: idle, it has been processed
  await env.idle();
  assert.is(await autoReplies(), before + 1, 'read and known for an auto-reply');
  assert.not.ok((await eventsNamed(env.daemon, 'email.bounce')).some((e) => e.emailId === emailId));
});

test('mail to a verified domain is email.received with every field, DKIM verdicts, and an upserted contact', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  env.dns.set('k1._domainkey.people.test', 'TXT', [`v=DKIM1; k=rsa; p=${der}`]);
  env.dns.set('people.test', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: env.daemon.smtpPort,
    secure: false,
    ignoreTLS: true,
    dkim: { domainName: 'people.test', keySelector: 'k1', privateKey: pem },
  });
  await transport.sendMail({ from: 'Bob Reply <bob@people.test>', to: 'support@sender.test', subject: 'Re: Deals', html: '<p>Thanks!</p>', text: 'Thanks!' });
  transport.close();
  const received = await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.from === 'bob@people.test'), 8000, 'received');
  const d = received.data;
  for (const field of ['messageId', 'from', 'fromHeader', 'to', 'subject', 'timestamp', 'recipients', 'hasContent', 'body', 'spamVerdict', 'virusVerdict', 'spfVerdict', 'dkimVerdict', 'dmarcVerdict', 'processingTimeMillis']) {
    assert.ok(field in d, `email.received has ${field}`);
  }
  assert.is(d.subject, 'Re: Deals');
  assert.equal(d.recipients, ['support@sender.test']);
  assert.is(d.hasContent, true);
  assert.match(d.body, 'Thanks!');
  assert.is(d.dkimVerdict, 'PASS');
  assert.is(d.spfVerdict, 'PASS');
  assert.is(d.spamVerdict, 'DISABLED');
  assert.is(d.virusVerdict, 'DISABLED');
  assert.match(d.fromHeader, 'Bob Reply');
  const contact = await env.daemon.request('GET', `/contacts/${received.contactId}`);
  assert.is(contact.body.email, 'bob@people.test');

  // The same message with its body changed after signing: DKIM fails.
  const signed = nodemailer.createTransport({ streamTransport: true, buffer: true, dkim: { domainName: 'people.test', keySelector: 'k1', privateKey: pem } });
  const info = await signed.sendMail({ from: 'carol@people.test', to: 'support@sender.test', subject: 'Tampered', text: 'original' });
  const tampered = (info.message as Buffer).toString().replace('original', 'changed!');
  await smtpSend('carol@people.test', ['support@sender.test'], tampered);
  const bad = await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.from === 'carol@people.test'), 8000, 'tampered');
  assert.is(bad.data.dkimVerdict, 'FAIL');
});

test('STARTTLS is offered and works (self-signed certificate generated at first start)', async () => {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: env.daemon.smtpPort,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
  });
  const info = await transport.sendMail({ from: 'tls@people.test', to: 'support@sender.test', subject: 'Over TLS', text: 'encrypted' });
  transport.close();
  assert.match(info.response, /^250/);
  await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.from === 'tls@people.test'), 8000, 'received over TLS');
});

test('malformed MIME and 8-bit garbage get a 250 and never crash the daemon', async () => {
  for (const name of ['malformed-mime.eml', 'eight-bit-garbage.eml']) {
    const reply = await smtpSend('x@people.test', ['support@sender.test'], readFileSync(join(fixtures, name)));
    assert.match(reply, /^250/);
  }
  const garbage = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256));
  assert.match(await smtpSend('x@people.test', ['support@sender.test'], garbage), /^250/);
  // all three processed (or failed for good) without taking the daemon down
  await env.idle();
  assert.is((await env.daemon.request('GET', '/health', undefined, { key: null })).status, 200);
});

test('a slow client gets proper answers and never stalls the API', async () => {
  const socket = createConnection({ host: '127.0.0.1', port: env.daemon.smtpPort });
  socket.setNoDelay(true);
  let transcript = '';
  socket.on('data', (d: Buffer) => (transcript += d.toString()));
  const answered = (pattern: RegExp, what: string) => eventually((saw) => (saw(transcript), pattern.test(transcript)), 5000, what);
  await answered(/^220 /, 'the greeting'); // talking first is refused (421)
  // a byte per turn of the event loop, each in a segment of its own: the commands arrive in pieces
  const dribble = async (text: string) => {
    for (const ch of text) {
      socket.write(ch);
      await new Promise((r) => setImmediate(r));
    }
  };
  await dribble('EHLO slow.test\r\nMAIL FROM:<slow@people.test>\r\n');
  await answered(/\r\n250 [^\r]*\r\n250 [^\r]*\r\n$/, 'the answers to EHLO and MAIL FROM');
  await dribble('RCPT TO:<nobody@else');
  // the session holds half a command: the API answers meanwhile
  const health = await within(env.daemon.request('GET', '/health', undefined, { key: null }), 10_000, 'the API to answer while an SMTP command is half sent');
  assert.is(health.status, 200);
  assert.not.match(transcript, /550/, 'the RCPT is still unfinished');
  await dribble('where.test>\r\n');
  await answered(/550/, 'an answer to the slow RCPT');
  assert.match(transcript, /^220 /);
  assert.match(transcript, /250[- ]SIZE \d+/);
  assert.match(transcript, /250-STARTTLS/);
  socket.destroy();
});

test('a message over the size limit is refused with 552; too many recipients with 452', async () => {
  const big = Buffer.concat([Buffer.from('Subject: big\r\n\r\n'), Buffer.alloc(41 * 1024 * 1024, 'a\r\n')]);
  const err = await smtpError('x@people.test', ['support@sender.test'], big);
  assert.is(err.responseCode, 552);
  const many = Array.from({ length: 1000 }, (_, i) => `r${i}@sender.test`);
  const reply = await smtpSend('x@people.test', many, 'Subject: many\r\n\r\nhi\r\n').catch((e: Error) => e.message);
  assert.match(String(reply), /250|452/);
  assert.is((await env.daemon.request('GET', '/health', undefined, { key: null })).status, 200, 'the API is not stalled');
});

test.run();
