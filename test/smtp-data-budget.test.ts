// The daemon-wide budget of DATA being received (smtp.dataBudget): every session's message is
// bounded by smtp.maxSize, their sum by the budget. Past it the message is refused with 452 4.3.1
// and a log line; the room comes back when a message is stored, refused, or its client is gone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../src/config.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { openEhloSession, type SmtpSession } from './helpers/smtp-session.js';

const KB = 1024;
const MAX_SIZE = 96 * KB;
const BUDGET = 100 * KB;
const FULL = 'SMTP data budget full: message refused with 452, the sender will retry';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({
    config: { smtp: { host: '127.0.0.1', port: 0, maxSize: MAX_SIZE, dataBudget: BUDGET }, submission: { host: '127.0.0.1', port: 0 } },
    senders: ['sender.test'],
    sinkDomains: ['rcpt.test'],
  });
});
test.after(async () => env.close());

/** A message of about `bytes`: headers, then lines of 1000 bytes (no final dot). */
function message(subject: string, bytes: number): string {
  const line = 'x'.repeat(998) + '\r\n';
  return `From: app@sender.test\r\nTo: support@sender.test\r\nSubject: ${subject}\r\n\r\n${line.repeat(Math.ceil(bytes / line.length))}`;
}

/** A session of the inbound listener inside DATA, after its 354. */
async function inboundData(): Promise<SmtpSession> {
  const session = await openEhloSession(env.daemon.smtpPort);
  assert.is((await session.command('MAIL FROM:<app@client.test>')).code, 250);
  assert.is((await session.command('RCPT TO:<support@sender.test>')).code, 250);
  assert.is((await session.command('DATA')).code, 354);
  return session;
}

/** A submission session (STARTTLS, AUTH) inside DATA, after its 354. */
async function submissionData(): Promise<SmtpSession> {
  const session = await openEhloSession(env.daemon.submissionPort!, { tls: true });
  assert.is((await session.auth(env.daemon.project.secretKey)).code, 235);
  assert.is((await session.command('MAIL FROM:<app@sender.test>')).code, 250);
  assert.is((await session.command('RCPT TO:<reader@rcpt.test>')).code, 250);
  assert.is((await session.command('DATA')).code, 354);
  return session;
}

/** Ends the message of a session inside DATA; answers the server's reply code and text. */
async function finish(session: SmtpSession): Promise<{ code: number; text: string }> {
  await session.write('.\r\n');
  const reply = await session.reply();
  session.close();
  return reply;
}

const logged = (msg: string) => env.daemon.logs().filter((l) => l.msg === msg);

/** Waits until the daemon logged `msg` more than `before` times: the condition that a session's bytes arrived. */
const loggedMore = (msg: string, before: number, what: string) => eventually(() => logged(msg).length > before, 8000, what);

/** One whole message through the inbound listener: its reply code. */
async function sendWhole(subject: string, bytes: number): Promise<number> {
  const session = await inboundData();
  await session.write(message(subject, bytes));
  return (await finish(session)).code;
}

test('parallel sessions past the budget: the excess gets 452 4.3.1 and a log line, the others are stored, then the whole budget is free again', async () => {
  const before = logged(FULL).length;
  const sessions = await Promise.all([inboundData(), inboundData(), inboundData()]);
  // 3 x 40 KB do not fit in 100 KB; 2 x 40 KB do, so once one session gave its room back the others go on
  await Promise.all(sessions.map((s, i) => s.write(message(`parallel ${i}`, 40 * KB))));
  await loggedMore(FULL, before, 'the budget full with every session inside DATA');
  const replies = await Promise.all(sessions.map(finish));
  assert.equal(replies.map((r) => r.code).sort(), [250, 250, 452], JSON.stringify(replies));
  assert.match(replies.find((r) => r.code === 452)!.text, /^452 4\.3\.1 /);
  const line = logged(FULL).at(-1)!;
  assert.equal([line.level, line.listener, line.budget], ['warn', 'smtp', BUDGET]);
  // nearly the whole budget fits only if every session gave its bytes back, the refused one included
  assert.is(await sendWhole('after', 90 * KB), 250);
});

test('a client gone mid-DATA gives its room back', async () => {
  const before = { full: logged(FULL).length, gone: logged('inbound message not stored').length };
  const sessions = await Promise.all([inboundData(), inboundData()]);
  await Promise.all(sessions.map((s, i) => s.write(message(`dropped ${i}`, 60 * KB))));
  // one was refused (and gave back its room); the other holds more than 40 KB when both clients go
  await loggedMore(FULL, before.full, 'the budget full with both sessions inside DATA');
  for (const s of sessions) s.close();
  await eventually(() => logged('inbound message not stored').length >= before.gone + 2, 8000, 'both sessions ended by their clients');
  assert.is(await sendWhole('after the drop', 90 * KB), 250);
});

test('inbound and submission share the one budget', async () => {
  const before = logged(FULL).length;
  const sessions = await Promise.all([inboundData(), submissionData()]);
  await Promise.all(sessions.map((s, i) => s.write(message(`shared ${i}`, 60 * KB).replace('To: support@sender.test', 'To: reader@rcpt.test'))));
  await loggedMore(FULL, before, 'the budget full with both listeners inside DATA');
  const replies = await Promise.all(sessions.map(finish));
  assert.equal(replies.map((r) => r.code).sort(), [250, 452], JSON.stringify(replies));
});

test('a budget smaller than smtp.maxSize stops the start: a message of the largest size would never fit', () => {
  assert.throws(() => loadConfig(null, { POSTMILL_SMTP_MAX_SIZE: String(MAX_SIZE), POSTMILL_SMTP_DATA_BUDGET: String(BUDGET - 10 * KB) }), /"smtp\.dataBudget": at least smtp\.maxSize/);
});

test.run();
