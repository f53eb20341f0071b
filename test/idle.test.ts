import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

// The test hook that replaces "nothing happened within N ms" sleeps: it answers once the job
// runner has nothing running and nothing due, so what the work did is there to be read.

let env: MailEnv;
test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['rcpt.test'], senders: ['idle.test'] });
});
test.after(async () => env.close());

test('idle waits for the work a request queued: every delivery is in the sink when it answers', async () => {
  const to = Array.from({ length: 30 }, (_, i) => `reader${i}@rcpt.test`);
  const sent = await env.daemon.request('POST', '/v1/send', { to, from: 'news@idle.test', subject: 'All at once', body: '<p>hi</p>' });
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  await env.idle();
  assert.is(env.sink.messages.filter((m) => m.rcptTo[0]!.endsWith('@rcpt.test')).length, to.length);
});

test('jobs due later do not keep it busy; moving the clock makes them due, and idle waits for them again', async () => {
  const w = (await env.daemon.request('POST', '/workflows', { name: 'later', eventName: 'later' })).body;
  const delay = await env.daemon.request('POST', `/workflows/${w.id}/steps`, { type: 'DELAY', name: 'an hour', config: { amount: 1, unit: 'hours' } });
  await env.daemon.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: delay.body.id });
  assert.is((await env.daemon.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  await env.daemon.request('POST', '/v1/track', { email: 'waits@rcpt.test', event: 'later' }, { key: env.daemon.project.publicKey });
  await env.idle();
  const status = async () => (await env.daemon.request('GET', `/workflows/${w.id}/executions`)).body.data.map((e: { status: string }) => e.status);
  assert.equal(await status(), ['WAITING'], 'the delay is a job due in an hour');
  await env.advance(3_600_000);
  await env.idle();
  assert.equal(await status(), ['COMPLETED']);
});

test.run();
