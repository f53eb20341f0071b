// What one SMTP session may hold, on the inbound listener and on submission: DATA past
// smtp.maxSize is answered 552 at its end with nothing stored and the daemon's memory flat; an
// over-long command or AUTH line ends the session; recipients stop at the listener's cap.
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { openEhloSession } from './helpers/smtp-session.js';

const MB = 1024 * 1024;
const MAX_SIZE = MB;
/** Sent past the limit. Kept, it would show as 256 MB or more of the daemon's memory. */
const OVERSIZE = 256 * MAX_SIZE;
/**
 * What the daemon's peak may grow by meanwhile: the chunks it dropped are garbage until V8's next
 * collection, which V8 brings about once external memory (Buffers) grew by up to 64 MB (0.4-42 MB
 * measured for 50 to 300 MB sent): a constant, not a share of what was sent.
 */
const GARBAGE_ALLOWANCE = 96 * MB;

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { smtp: { host: '127.0.0.1', port: 0, maxSize: MAX_SIZE }, submission: { host: '127.0.0.1', port: 0 } } });
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

/** A message of about `bytes`, made as it is read: the test holds none of it. */
function message(subject: string, bytes: number): Readable {
  const line = Buffer.from('x'.repeat(998) + '\r\n');
  const batch = Buffer.concat(Array.from({ length: 64 }, () => line));
  let left = bytes;
  let header = true;
  return new Readable({
    read() {
      if (header) {
        header = false;
        this.push(`From: app@sender.test\r\nTo: support@sender.test\r\nSubject: ${subject}\r\n\r\n`);
      }
      const part = batch.subarray(0, Math.min(left, batch.length));
      left -= part.length;
      this.push(part);
      if (left <= 0) this.push(null);
    },
  });
}

interface Listener {
  name: string;
  port: () => number;
  /** Transport options beyond host and port. */
  options: () => Record<string, unknown>;
}

const inbound: Listener = { name: 'inbound', port: () => env.daemon.smtpPort, options: () => ({ ignoreTLS: true }) };
const submission: Listener = {
  name: 'submission',
  port: () => env.daemon.submissionPort!,
  options: () => ({ requireTLS: true, tls: { rejectUnauthorized: false }, auth: { user: 'postmill', pass: env.daemon.project.secretKey } }),
};

async function send(listener: Listener, subject: string, bytes: number): Promise<{ code: number; text: string }> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port(), secure: false, ...listener.options() });
  try {
    const info = await transport.sendMail({ envelope: { from: 'app@sender.test', to: listener === inbound ? ['support@sender.test'] : ['reader@rcpt.test'] }, raw: message(subject, bytes) });
    return { code: Number(info.response.slice(0, 3)), text: info.response };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string };
    return { code: e.responseCode ?? 0, text: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

const status = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The daemon's peak resident memory while `work` runs, above its resident memory before. */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
  const pid = env.daemon.pid();
  // 5: resets the process's peak RSS (VmHWM) to its current RSS (proc(5), clear_refs)
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = status(pid, 'VmRSS');
  await work();
  return status(pid, 'VmHWM') - before;
}

/** Waits until the message with this subject arrived where the listener puts it: received (inbound) or delivered (submission). */
async function arrived(listener: Listener, subject: string): Promise<void> {
  if (listener === inbound) {
    await eventually(async () => (await eventsNamed(env.daemon, 'email.received')).some((e) => e.data.subject === subject), 8000, `${subject} received`);
  } else {
    await eventually(async () => env.sink.messages.some((m) => m.raw.includes(`Subject: ${subject}`)), 8000, `${subject} delivered`);
  }
}

/** Whether anything of the message with this subject was kept: an inbound message received, a submission delivered. */
async function kept(listener: Listener, subject: string): Promise<boolean> {
  if (listener === inbound) return (await eventsNamed(env.daemon, 'email.received')).some((e) => e.data.subject === subject);
  return env.sink.messages.some((m) => m.raw.includes(`Subject: ${subject}`));
}

for (const listener of [inbound, submission]) {
  test(`${listener.name}: DATA of 256 times smtp.maxSize is answered 552 at its end, nothing is kept and memory stays flat; just under the limit is accepted`, async () => {
    const under = await send(listener, `${listener.name} under`, MAX_SIZE - 8 * 1024);
    assert.is(under.code, 250, under.text);
    // processed before the measure, which then sees the oversized message alone
    await arrived(listener, `${listener.name} under`);
    let over = { code: 0, text: '' };
    const growth = await peakGrowth(async () => (over = await send(listener, `${listener.name} over`, OVERSIZE)));
    assert.is(over.code, 552, over.text);
    assert.match(over.text, `${MAX_SIZE} bytes`);
    assert.ok(growth < GARBAGE_ALLOWANCE, `the daemon's peak memory grew by ${(growth / MB).toFixed(1)} MB while ${OVERSIZE / MB} MB were sent`);
    // a message sent after it is processed after anything of it would have been
    assert.is((await send(listener, `${listener.name} after`, 1024)).code, 250);
    await arrived(listener, `${listener.name} after`);
    assert.not.ok(await kept(listener, `${listener.name} over`), 'nothing of the oversized message was kept');
  });
}

/** One line of a MB, as a client that never ends its line would send it. */
const HUGE_LINE = 'A'.repeat(MB);

test('an over-long command line ends the session with 421, on both listeners, also inside AUTH', async () => {
  const plain = await openEhloSession(env.daemon.smtpPort);
  await plain.write(`MAIL FROM:<${HUGE_LINE}`);
  assert.is((await plain.reply()).code, 421);
  await plain.closed;

  const submitting = await openEhloSession(env.daemon.submissionPort!, { tls: true });
  await submitting.write(`AUTH PLAIN ${HUGE_LINE}`);
  assert.is((await submitting.reply()).code, 421);
  await submitting.closed;

  const login = await openEhloSession(env.daemon.submissionPort!, { tls: true });
  assert.is((await login.command('AUTH LOGIN')).code, 334);
  await login.write(HUGE_LINE);
  assert.is((await login.reply()).code, 421, 'a continuation line of AUTH LOGIN is bounded the same');
  await login.closed;
  assert.is((await env.daemon.request('GET', '/health', undefined, { key: null })).status, 200);
});

test('recipients past the cap of the listener are refused with 452: 100 inbound, 50 on submission', async () => {
  const codes = async (session: Awaited<ReturnType<typeof openEhloSession>>, rcpt: (i: number) => string, count: number) => {
    assert.is((await session.command('MAIL FROM:<app@sender.test>')).code, 250);
    const answers: number[] = [];
    for (let i = 0; i < count; i++) answers.push((await session.command(`RCPT TO:<${rcpt(i)}>`)).code);
    session.close();
    return { accepted: answers.filter((c) => c === 250).length, refused: answers.filter((c) => c === 452).length };
  };
  assert.equal(await codes(await openEhloSession(env.daemon.smtpPort), (i) => `r${i}@sender.test`, 130), { accepted: 100, refused: 30 });
  const submitting = await openEhloSession(env.daemon.submissionPort!, { tls: true });
  assert.is((await submitting.auth(env.daemon.project.secretKey)).code, 235);
  assert.equal(await codes(submitting, (i) => `r${i}@rcpt.test`, 70), { accepted: 50, refused: 20 });
});

test.run();
