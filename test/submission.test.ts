import type { SendMailOptions } from 'nodemailer';
import { simpleParser } from 'mailparser';
import { connect, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys } from './helpers/daemon.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { refusal as refuse, submit as submitTo } from './helpers/submission.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { submission: { host: '127.0.0.1', port: 0 } } });
  await env.verifySender('acme.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

const submit = (message: SendMailOptions, pass?: string) => submitTo(env.daemon, message, pass);
const refusal = (message: SendMailOptions, pass?: string, user?: string) => refuse(env.daemon, message, pass, user);

/** A plain-text SMTP conversation: each command's reply, as the server wrote it. */
async function converse(commands: string[]): Promise<string[]> {
  const socket: Socket = connect(env.daemon.submissionPort!, '127.0.0.1');
  let buffer = '';
  const reply = () =>
    new Promise<string>((resolve) => {
      const done = () => {
        const end = /^\d{3} .*\r\n/m.exec(buffer);
        if (!end) return false;
        const upTo = end.index + end[0].length;
        resolve(buffer.slice(0, upTo));
        buffer = buffer.slice(upTo);
        return true;
      };
      if (done()) return;
      const onData = (chunk: Buffer) => {
        buffer += chunk.toString();
        if (done()) socket.off('data', onData);
      };
      socket.on('data', onData);
    });
  const replies = [await reply()];
  for (const command of commands) {
    socket.write(command + '\r\n');
    replies.push(await reply());
  }
  socket.destroy();
  return replies;
}

test('the ready line names the submission listener; AUTH works only after STARTTLS', async () => {
  assert.ok(env.daemon.submissionPort! > 0);
  const [greeting, ehlo, auth, mail] = await converse([
    'EHLO client.test',
    `AUTH PLAIN ${Buffer.from(`\0postmill\0${env.daemon.project.secretKey}`).toString('base64')}`,
    'MAIL FROM:<a@acme.test>',
  ]);
  assert.match(greeting!, /^220 /);
  assert.match(ehlo!, 'STARTTLS');
  assert.match(auth!, /^538 /, 'no credentials over plain text');
  assert.match(mail!, /^530 /, 'no mail without AUTH');
});

test('a submitted message goes through the /v1/send pipeline: contact upserted, DKIM-signed, Message-ID kept, every envelope recipient', async () => {
  const before = env.sink.messages.length;
  const response = await submit({
    from: '"Acme" <hello@acme.test>',
    to: '"Ann Example" <ann@rcpt.test>',
    bcc: 'audit@rcpt.test',
    replyTo: 'support@acme.test',
    subject: 'Your receipt',
    html: '<p>Thanks, <b>Ann</b>. <img src="cid:logo@acme"></p>',
    text: 'Thanks, Ann.',
    messageId: '<receipt-1@app.acme.test>',
    headers: { 'X-Order': '1042', Received: 'from somewhere' },
    attachments: [
      { filename: 'receipt.txt', content: 'total: 12.00' },
      { filename: 'logo.png', content: Buffer.from('89504e47', 'hex'), cid: 'logo@acme' },
    ],
  });
  assert.match(response, /^250 .*Queued as/);
  const delivered = (await env.sink.waitFor(before + 2, 8000)).slice(before);
  assert.equal(delivered.map((m) => m.rcptTo[0]).sort(), ['ann@rcpt.test', 'audit@rcpt.test']);
  for (const message of delivered) {
    const dkim = await verifyDkim(message.raw, env.dns.address);
    assert.ok(dkim.pass, JSON.stringify(dkim.results));
    const parsed = await simpleParser(message.raw, { keepCidLinks: true });
    assert.is(parsed.messageId, '<receipt-1@app.acme.test>');
    assert.is(parsed.from?.text, '"Acme" <hello@acme.test>');
    assert.is(parsed.subject, 'Your receipt');
    assert.is(parsed.replyTo?.text, 'support@acme.test');
    assert.is(parsed.headers.get('x-order'), '1042');
    assert.not.ok(String(parsed.headers.get('received') ?? '').includes('somewhere'), 'only the headers a caller may set are carried');
    assert.not.ok(parsed.headers.has('bcc'), 'Bcc never reaches a recipient');
    assert.equal(parsed.attachments.map((a) => a.filename).sort(), ['logo.png', 'receipt.txt']);
    assert.match(String(parsed.html), 'cid:logo@acme');
  }
  const lookup = await env.daemon.request('POST', '/contacts/lookup', { emails: ['ann@rcpt.test', 'audit@rcpt.test'] });
  assert.is(lookup.body.found.length, 2);
  const ann = await env.daemon.request('GET', `/contacts/${lookup.body.found.find((c: { email: string }) => c.email === 'ann@rcpt.test').id}`);
  assert.is(ann.body.data.name, 'Ann Example', 'the display name of To is contact data, as with /v1/send');
  assert.is(ann.body.subscribed, false, 'new contacts from a send are unsubscribed');
  assert.is((await eventsNamed(env.daemon, 'email.sent')).filter((e) => e.data.messageId === '<receipt-1@app.acme.test>').length, 2);
});

test('the same Message-ID again is accepted once: a client retry after a lost 250 sends nothing twice', async () => {
  const message = { from: 'hello@acme.test', to: 'retry@rcpt.test', subject: 'once', text: 'once', messageId: '<retry-1@app.acme.test>' };
  const before = env.sink.messages.length;
  assert.match(await submit(message), 'Queued as');
  await env.sink.waitFor(before + 1, 8000);
  assert.match(await submit(message), 'Already accepted');
  // had the second been queued, it would have been delivered by now
  await env.idle();
  assert.is(env.sink.messages.length, before + 1);
  assert.is((await eventsNamed(env.daemon, 'email.sent')).filter((e) => e.data.messageId === '<retry-1@app.acme.test>').length, 1);
  // Another project may use the same Message-ID: the key is per project.
  const other = env.daemon.createProject('other-sender');
  await env.verifySender('other.test', other);
  assert.match(await submit({ ...message, from: 'hello@other.test' }, other.secretKey), 'Queued as');
});

test("refusals are the API's, as SMTP replies: unverified sender 550 5.7.1, invalid message 550 5.6.0, disabled project 550", async () => {
  const unverified = await refusal({ from: 'hello@elsewhere.test', to: 'x@rcpt.test', subject: 's', text: 'b' });
  assert.is(unverified.responseCode, 550);
  assert.match(unverified.response ?? '', '5.7.1');
  const noSubject = await refusal({ from: 'hello@acme.test', to: 'x@rcpt.test', text: 'b' });
  assert.is(noSubject.responseCode, 550);
  assert.match(noSubject.response ?? '', /5\.6\.0 .*subject/i);
  const project: Keys = env.daemon.createProject('disabled-sender');
  env.daemon.cli('project', 'disable', project.id);
  const disabled = await refusal({ from: 'hello@acme.test', to: 'x@rcpt.test', subject: 's', text: 'b' }, project.secretKey);
  assert.is(disabled.responseCode, 550);
  assert.match(disabled.response ?? '', 'disabled');
});

test('a bad login is 535; five from one address within 15 minutes and AUTH is refused (454) until the window passes', async () => {
  const message = { from: 'hello@acme.test', to: 'x@rcpt.test', subject: 's', text: 'b' };
  const attempts = [
    { user: 'postmill', pass: 'sk_' + '0'.repeat(64) },
    { user: 'postmill', pass: env.daemon.project.publicKey },
    { user: 'admin', pass: env.daemon.project.secretKey },
    { user: 'postmill', pass: 'password' },
    { user: 'postmill', pass: '' },
  ];
  for (const { user, pass } of attempts) {
    const refused = await refusal(message, pass || 'x', user);
    assert.is(refused.responseCode, 535, `${user}:${pass}`);
  }
  const limited = await refusal(message);
  assert.is(limited.responseCode, 454, 'even the right key waits');
  await env.advance(15 * 60_000 + 1000);
  assert.match(await submit(message), 'Queued as');
});

test.run();
