import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import type { LogLine } from './helpers/daemon.js';
import { uploadCsv } from './helpers/upload.js';

// What an operator reading the journal sees of an afternoon's work, at the default level (info):
// the start, imports, campaigns from start to end, webhooks that fail, a line a minute on delivery.

let env: MailEnv;
test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['rcpt.test'], senders: ['journal.test'], config: { log: { level: 'info' }, webhooks: { allowPrivate: true } } });
});
test.after(async () => env.close());

const line = (msg: string): LogLine | undefined => env.daemon.logs().find((l) => l.msg === msg);
const waitForLine = (msg: string) => eventually(async () => line(msg), 15_000, `the journal line "${msg}"`);

test('the start names the version, the listeners and the delivery mode', () => {
  const started = line('postmill started');
  assert.ok(started, env.daemon.stderr().slice(-2000));
  assert.type(started!.version, 'string');
  assert.is(started!.http, env.daemon.url);
  assert.is(started!.delivery, 'mx');
});

test('an import that ends says what it did', async () => {
  const csv = 'email,plan\nann@rcpt.test,pro\nnot-an-email,free\nbob@rcpt.test,free\n';
  const r = await uploadCsv(env.daemon, csv);
  assert.is(r.status, 202, JSON.stringify(r.body));
  const done = (await waitForLine('contact import finished'))!;
  assert.is(done.jobId, r.body.jobId);
  assert.equal([done.totalRows, done.created, done.failed], [3, 2, 1]);
});

test('a campaign: sending with its audience, queued with its emails, sent with what became of them', async () => {
  const created = await env.daemon.request('POST', '/campaigns', { name: 'Journal news', subject: 'News', body: '<p>hi</p>', from: 'news@journal.test', audienceType: 'ALL' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id;
  assert.is((await env.daemon.request('POST', `/campaigns/${id}/send`, {})).status, 200);
  const sending = (await waitForLine('campaign sending'))!;
  assert.equal([sending.campaignId, sending.audience], [id, 2]);
  assert.is((await waitForLine('campaign queued'))!.emails, 2);
  const sent = (await waitForLine('campaign sent'))!;
  assert.equal([sent.campaignId, sent.recipients, sent.delivered, sent.bounced], [id, 2, 2, 0]);
});

test('a webhook that fails for good is a warning naming the execution and why', async () => {
  const w = (await env.daemon.request('POST', '/workflows', { name: 'hook', eventName: 'hooked' })).body;
  // nothing listens on port 9 of loopback: the connection is refused, three times
  const step = await env.daemon.request('POST', `/workflows/${w.id}/steps`, { type: 'WEBHOOK', name: 'hook', config: { url: 'http://127.0.0.1:9/hook' } });
  await env.daemon.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: step.body.id });
  assert.is((await env.daemon.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  await env.daemon.request('POST', '/v1/track', { email: 'ann@rcpt.test', event: 'hooked' }, { key: env.daemon.project.publicKey });
  // the retries wait 10 s then 60 s: the clock moves past them
  for (let i = 0; i < 3 && !line('webhook failed'); i++) {
    await env.idle();
    await env.advance(60_000);
  }
  const failed = (await waitForLine('webhook failed'))!;
  assert.is(failed.level, 'warn');
  assert.is(failed.workflowId, w.id);
  assert.match(String(failed.error), 'failed');
});

test('delivery: a line a minute with the counts (written at the latest when the daemon stops)', async () => {
  await env.idle();
  await env.daemon.stop();
  const deliveries = env.daemon.logs().filter((l) => l.msg === 'deliveries');
  assert.ok(deliveries.length > 0, env.daemon.stderr().slice(-2000));
  assert.ok(deliveries.reduce((n, l) => n + Number(l.delivered), 0) >= 2, JSON.stringify(deliveries));
  await env.daemon.restart();
});

test.run();
