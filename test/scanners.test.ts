import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { virusVerdict } from '../src/inbound/scanners/clamd.js';
import { spamReport, spamVerdict } from '../src/inbound/scanners/spamd.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { startFakeClamd, startFakeSpamd, type FakeScanner } from './helpers/scanners.js';

let spamd: FakeScanner;
let clamd: FakeScanner;
let env: MailEnv;

test.before(async () => {
  spamd = await startFakeSpamd();
  clamd = await startFakeClamd();
  env = await startMailEnv({ config: { scanners: { spamd: spamd.address, clamd: clamd.address } } });
  await env.verifySender('sender.test');
});
test.after(async () => {
  await env.close();
  await spamd.close();
  await clamd.close();
});

test('scanner clients: PASS, FAIL, and PROCESSING_FAILED when the scanner is unreachable', async () => {
  assert.is(await spamVerdict(spamd.address, Buffer.from('Subject: hi\r\n\r\nhello')), 'PASS');
  assert.is(await spamVerdict(spamd.address, Buffer.from('Subject: hi\r\n\r\nSPAM-MARKER')), 'FAIL');
  assert.is(await virusVerdict(clamd.address, Buffer.from('clean')), 'PASS');
  assert.is(await virusVerdict(clamd.address, Buffer.alloc(200_000, 'VIRUS-MARKER ')), 'FAIL', 'found across INSTREAM chunks');
  assert.is(await spamVerdict('127.0.0.1:1', Buffer.from('x'), 2000), 'PROCESSING_FAILED');
  assert.is(await virusVerdict('127.0.0.1:1', Buffer.from('x'), 2000), 'PROCESSING_FAILED');
});

test('a spamd report: the verdict, the score against the threshold and the rules that fired', async () => {
  assert.equal(await spamReport(spamd.address, Buffer.from('Subject: hi\r\n\r\nSPAM-MARKER')), { spam: true, score: 15, threshold: 5, rules: ['POSTMILL_MARKER', 'MISSING_DATE'] });
  assert.equal(await spamReport(spamd.address, Buffer.from('Subject: hi\r\n\r\nhello')), { spam: false, score: 0.1, threshold: 5, rules: ['MISSING_DATE'] });
  assert.is(await spamReport('127.0.0.1:1', Buffer.from('x'), 2000), null);
});

test('received mail carries the spam and virus verdicts of the configured scanners', async () => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: env.daemon.smtpPort, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'clean@people.test', to: 'support@sender.test', subject: 'Clean', text: 'hello' });
  await transport.sendMail({ from: 'bad@people.test', to: 'support@sender.test', subject: 'Bad', text: 'SPAM-MARKER VIRUS-MARKER' });
  transport.close();
  const byFrom = async (from: string) => (await eventsNamed(env.daemon, 'email.received')).find((e) => e.data.from === from);
  const clean = await eventually(() => byFrom('clean@people.test'), 8000, 'clean mail');
  const bad = await eventually(() => byFrom('bad@people.test'), 8000, 'bad mail');
  assert.is(clean.data.spamVerdict, 'PASS');
  assert.is(clean.data.virusVerdict, 'PASS');
  assert.is(bad.data.spamVerdict, 'FAIL');
  assert.is(bad.data.virusVerdict, 'FAIL');
});

test.run();
