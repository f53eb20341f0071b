// Cancelling a campaign of thousands of unsent emails answers CANCELLED at once and leaves their
// end to a durable job that fails them a batch at a time (its log line counts the batches); none of
// them is attempted afterwards, the ones the job had not reached yet included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv } from './helpers/mail-env.js';
import { seedContacts } from './helpers/seed.js';

const RECIPIENTS = 3000;
const MINUTE = 60_000;

test('a cancel of 3000 queued emails answers at once; a job fails them in batches; none is sent after', async () => {
  // one delivery a minute: the rest of the send stays queued
  const env = await startMailEnv({ senders: ['cancel.test'], sinkDomains: ['rcpt.test'], config: { log: { level: 'info' }, delivery: { throttlePerMinute: 1 } } });
  const d = env.daemon;
  try {
    await seedContacts(d, d.project.id, RECIPIENTS, 'rcpt.test');
    const created = await d.request('POST', '/campaigns', { name: 'Big', subject: 'Big', body: '<p>Hi</p>', from: 'news@cancel.test', audienceType: 'ALL' });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id as string;
    assert.is((await d.request('POST', `/campaigns/${id}/send`, {})).status, 200);
    await env.idle(60_000);
    const before = (await d.request('GET', `/campaigns/${id}/stats`)).body.data;
    assert.is(before.sentCount, RECIPIENTS);
    assert.ok(before.queuedCount >= RECIPIENTS - 1, `${before.queuedCount} queued`);
    const delivered = env.sink.messages.length;

    const cancelled = await d.request('POST', `/campaigns/${id}/cancel`, {});
    assert.is(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.is(cancelled.body.status, 'CANCELLED');
    await env.idle();

    const line = d.logs().find((l) => l.msg === 'campaign cancel finished' && l.campaignId === id);
    assert.ok(line, 'the cancel job finished');
    assert.is(line!.emails, RECIPIENTS);
    assert.ok((line!.batches as number) >= 3, `${line!.batches} batches`);
    const after = (await d.request('GET', `/campaigns/${id}/stats`)).body.data;
    assert.is(after.status, 'CANCELLED');
    assert.is(after.queuedCount, 0);
    assert.is(after.deferredCount, 0);
    const failed = await d.request('GET', `/emails?campaignId=${id}&status=failed&limit=5`);
    assert.is(failed.body.data.length, 5);

    // the throttle's minutes pass: nothing of the campaign goes out any more
    for (let i = 0; i < 3; i++) {
      await env.advance(MINUTE);
      await env.idle();
    }
    assert.is(env.sink.messages.length, delivered);
  } finally {
    await env.close();
  }
});

test.run();
