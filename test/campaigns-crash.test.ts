import { join } from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { seedContacts } from './helpers/seed.js';

const AUDIENCE = 6000;
let env: MailEnv;

test.before(async () => {
  // the sink defers every message: the test is about the fan-out, deliveries stay queued
  env = await startMailEnv({ sinkDomains: ['crowd.test'], senders: ['big.test'] });
  env.sink.onRecipient(() => ({ code: 451, message: 'later' }));
  await seedContacts(env.daemon, env.daemon.project.id, AUDIENCE, 'crowd.test');
});
test.after(async () => env.close());

test('kill -9 in the middle of a fan-out: after restart it continues where it stopped, and nobody gets the campaign twice', async () => {
  const d = env.daemon;
  const created = await d.request('POST', '/campaigns', { name: 'Crowd', subject: 'Hi {{email}}', body: '<p>Hello</p>', from: 'news@big.test', audienceType: 'ALL' });
  const id = created.body.data.id as string;
  assert.is((await d.request('POST', `/campaigns/${id}/send`, {})).status, 200);
  const killedAt = await eventually(async () => {
    const sent = (await d.request('GET', `/campaigns/${id}`)).body.sentCount as number;
    return sent > 0 ? sent : null;
  }, 20_000, 'fan-out started');
  await d.kill();
  assert.ok(killedAt < AUDIENCE, `killed after ${killedAt} of ${AUDIENCE}`);
  await d.restart();
  const done = await eventually(async () => {
    const c = (await d.request('GET', `/campaigns/${id}`)).body;
    return c.totalRecipients === c.sentCount && c.sentCount === AUDIENCE ? c : null;
  }, 60_000, 'fan-out finished');
  assert.is(done.status, 'SENDING', 'the deferred emails are not final yet');
  const db = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT COUNT(*) AS emails, COUNT(DISTINCT contact_id) AS contacts FROM emails WHERE campaign_id = ?').get(id) as { emails: number; contacts: number };
    assert.equal(row, { emails: AUDIENCE, contacts: AUDIENCE });
    const recipients = db.prepare('SELECT COUNT(*) AS n FROM campaign_recipients WHERE campaign_id = ?').get(id) as { n: number };
    assert.is(recipients.n, AUDIENCE);
  } finally {
    db.close();
  }
});

test('cancel in the middle of a fan-out: batches composed ahead are dropped, nothing is queued after it, every email sent ends failed', async () => {
  const d = env.daemon;
  const created = await d.request('POST', '/campaigns', { name: 'Stopped', subject: 'Hi', body: '<p>Hello</p>', from: 'news@big.test', audienceType: 'ALL' });
  const id = created.body.data.id as string;
  assert.is((await d.request('POST', `/campaigns/${id}/send`, {})).status, 200);
  await eventually(async () => ((await d.request('GET', `/campaigns/${id}`)).body.sentCount > 0 ? true : null), 20_000, 'fan-out started');
  assert.is((await d.request('POST', `/campaigns/${id}/cancel`, {})).body.status, 'CANCELLED');
  const stored = () => {
    const db = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
    try {
      return db.prepare(`SELECT COUNT(*) AS emails, COUNT(*) FILTER (WHERE status <> 'failed') AS open FROM emails WHERE campaign_id = ?`).get(id) as { emails: number; open: number };
    } finally {
      db.close();
    }
  };
  const atCancel = stored();
  // the fan-out job has ended (the batch it wrote next was refused), and with it every batch composed ahead
  await env.idle(60_000);
  const after = stored();
  // the unsent emails end failed in the cancel's job, after the answer: only their number is fixed at the cancel
  assert.is(after.emails, atCancel.emails, 'no batch written after the cancel');
  assert.is(after.open, 0, 'every email of the campaign ended failed: none left queued');
  assert.ok(after.emails < AUDIENCE, `cancelled after ${after.emails} of ${AUDIENCE}`);
  const campaign = (await d.request('GET', `/campaigns/${id}`)).body;
  assert.is(campaign.status, 'CANCELLED');
  assert.is(campaign.sentCount, after.emails);
});

test.run();
