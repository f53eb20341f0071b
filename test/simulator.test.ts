// The simulator's addresses, in mx mode with a sink that must receive nothing: each plays its
// outcome through the paths real mail takes, and none counts in the project's rates.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { simulatedOutcome } from '../src/addresses/simulator.js';
import { bounceReport, complaintReport } from '../src/simulator/reports.js';
import { classifyMessage } from '../src/inbound/classify.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ senders: ['sender.test'] });
});
test.after(async () => env.close());

async function send(to: string): Promise<string> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject: 'Simulated', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data.emails[0].email;
}

const timeline = async (id: string) => (await env.daemon.request('GET', `/emails/${id}`)).body;

/** Waits until the job runner is idle, then lets the reports due within a second come back and be read. */
async function settled(): Promise<void> {
  await env.idle();
  await env.advance(1000);
  await env.idle();
}

const todayCounts = async () => {
  const r = await env.daemon.request('GET', '/stats/daily?days=7');
  return r.body.data.at(-1) as { sent: number; bounced: number; complained: number };
};

test('the outcome of an address: its local part, with or without a +label, on the simulator domain only', () => {
  assert.is(simulatedOutcome('delivered@simulator.postmill.invalid'), 'delivered');
  assert.is(simulatedOutcome('Bounce+signup-42@Simulator.Postmill.Invalid'), 'bounce');
  assert.is(simulatedOutcome('complaint@simulator.postmill.invalid'), 'complaint');
  assert.is(simulatedOutcome('delay+x@simulator.postmill.invalid'), 'delay');
  assert.is(simulatedOutcome('nobody@simulator.postmill.invalid'), null);
  assert.is(simulatedOutcome('bounce@example.com'), null);
});

test("the simulator's reports read as a bounce and a complaint to the inbound classifier", async () => {
  const report = { returnPath: 'b-0190a0a0-0000-7000-8000-000000000000@bounces.sender.test', recipient: 'bounce@simulator.postmill.invalid', headers: 'Subject: x\r\n', at: new Date() };
  const envelope = { mailFrom: '', rcptTo: [report.returnPath] };
  const bounce = await classifyMessage(bounceReport(report), envelope);
  assert.is(bounce.kind, 'bounce');
  assert.is(bounce.kind === 'bounce' && bounce.bounceType, 'Permanent');
  assert.is(bounce.kind === 'bounce' && bounce.emailId, '0190a0a0-0000-7000-8000-000000000000');
  const complaint = await classifyMessage(complaintReport(report), envelope);
  assert.is(complaint.kind, 'complaint');
  assert.is(complaint.kind === 'complaint' && complaint.feedbackType, 'abuse');
});

test('delivered@: delivered, named in the attempt, and nothing reaches the network', async () => {
  const id = await send('delivered@simulator.postmill.invalid');
  await settled();
  const email = await timeline(id);
  assert.is(email.status, 'delivered');
  assert.equal(
    email.attempts.map((a: any) => [a.mx, a.outcome, a.tls]),
    [['simulator', 'delivered', null]],
  );
  assert.match(email.attempts[0].reply, /^250 /);
  assert.ok(email.events.some((e: any) => e.name === 'email.delivery'));
  assert.is(env.sink.messages.length, 0);
});

test('bounce@: accepted, then a hard bounce through the inbound path: the address suppressed, the rates untouched', async () => {
  const before = await todayCounts();
  const id = await send('bounce+one@simulator.postmill.invalid');
  await settled();
  const email = await timeline(id);
  assert.is(email.status, 'bounced');
  assert.equal(email.attempts.map((a: any) => a.outcome), ['delivered'], 'the server accepted it; the bounce came later');
  const bounce = email.events.find((e: any) => e.name === 'email.bounce');
  assert.ok(bounce, JSON.stringify(email.events));
  assert.is(bounce.data.bounceType, 'Permanent');
  assert.is(bounce.data.simulated, true);
  assert.match(bounce.data.diagnosticCode, 'Simulated hard bounce', 'the diagnostic of the DSN, read by the inbound classifier');
  const names = email.events.map((e: any) => e.name);
  assert.ok(names.indexOf('email.delivery') < names.indexOf('email.bounce'), names.join());
  const suppressed = await env.daemon.request('GET', '/suppressions?search=bounce%2Bone');
  assert.equal(suppressed.body.data.map((s: any) => [s.email, s.reason]), [['bounce+one@simulator.postmill.invalid', 'bounce']]);
  const after = await todayCounts();
  assert.is(after.bounced, before.bounced, 'a simulated bounce does not count');
  assert.is(after.sent, before.sent + 1);
  const contact = await env.daemon.request('GET', `/contacts/${bounce.contactId}`);
  assert.is(contact.body.subscribed, false, 'the contact unsubscribed, as after a real bounce');
  assert.is(env.sink.messages.length, 0);
});

test('complaint@: accepted, then an ARF complaint: email.complaint, the address suppressed, the rates untouched', async () => {
  const before = await todayCounts();
  const id = await send('complaint@simulator.postmill.invalid');
  await settled();
  const complaints = await eventsNamed(env.daemon, 'email.complaint');
  const complaint = complaints.find((e) => e.emailId === id);
  assert.ok(complaint, 'email.complaint');
  assert.is(complaint.data.feedbackType, 'abuse');
  assert.is(complaint.data.simulated, true);
  const suppressed = await env.daemon.request('GET', '/suppressions?reason=complaint');
  assert.ok(suppressed.body.data.some((s: any) => s.email === 'complaint@simulator.postmill.invalid'));
  assert.is((await todayCounts()).complained, before.complained);
  assert.is(env.sink.messages.length, 0);
});

test('delay@: deferred once with a 4xx, delivered on the retry', async () => {
  const id = await send('delay@simulator.postmill.invalid');
  await env.idle();
  let email = await timeline(id);
  assert.is(email.status, 'deferred');
  assert.match(email.attempts[0].reply, /^451 4\.3\.0 /);
  await env.advance(60_000);
  await env.idle();
  email = await timeline(id);
  assert.is(email.status, 'delivered');
  assert.equal(email.attempts.map((a: any) => a.outcome), ['deferred', 'delivered']);
  assert.is(env.sink.messages.length, 0);
});

test('an address the simulator does not know is a hard bounce at once (550 5.1.1)', async () => {
  const id = await send('nobody@simulator.postmill.invalid');
  await env.idle();
  const email = await timeline(id);
  assert.is(email.status, 'bounced');
  assert.equal(email.attempts.map((a: any) => [a.mx, a.outcome]), [['simulator', 'bounced']]);
  assert.match(email.attempts[0].reply, /^550 5\.1\.1 /);
  assert.is(env.sink.messages.length, 0);
});

test.run();
