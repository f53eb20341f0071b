import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['crash.test'], senders: ['flows.test'] });
});
test.after(async () => env.close());

/** An enabled workflow: trigger -> each step in turn. */
async function chain(eventName: string, steps: { type: string; config: unknown }[]): Promise<string> {
  const d = env.daemon;
  const w = (await d.request('POST', '/workflows', { name: eventName, eventName })).body;
  let from = w.steps[0].id as string;
  for (const [i, s] of steps.entries()) {
    const step = (await d.request('POST', `/workflows/${w.id}/steps`, { type: s.type, name: `${s.type} ${i}`, config: s.config })).body;
    await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: from, toStepId: step.id });
    from = step.id;
  }
  assert.is((await d.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  return w.id;
}

const executions = async (id: string) => (await env.daemon.request('GET', `/workflows/${id}/executions?pageSize=100`)).body.data as { status: string; contactId: string }[];

test('events committed before a kill -9 start their executions after the restart, each exactly once', async () => {
  const d = env.daemon;
  const id = await chain('crash-start', [{ type: 'UPDATE_CONTACT', config: { updates: { started: true } } }]);
  const tracked = await Promise.all(
    Array.from({ length: 40 }, (_, i) => d.request('POST', '/v1/track', { email: `c${i}@crash.test`, event: 'crash-start' }, { key: d.project.publicKey })),
  );
  assert.ok(tracked.every((r) => r.status === 200));
  await d.kill();
  await d.restart();
  const done = await eventually(async () => {
    const list = await executions(id);
    return list.length === 40 && list.every((e) => e.status === 'COMPLETED') ? list : null;
  }, 15_000, '40 executions');
  assert.is(new Set(done.map((e) => e.contactId)).size, 40, 'one per event, none twice');
});

test('a kill -9 mid-workflow: the wait survives, and a send that completed is not repeated', async () => {
  const d = env.daemon;
  const template = (await d.request('POST', '/templates', { name: 't', subject: 'Once', body: '<p>once</p>', from: 'bot@flows.test', type: 'TRANSACTIONAL' })).body.id;
  const id = await chain('crash-mid', [
    { type: 'SEND_EMAIL', config: { templateId: template } },
    { type: 'DELAY', config: { amount: 1, unit: 'hours' } },
    { type: 'UPDATE_CONTACT', config: { updates: { finished: true } } },
  ]);
  await d.request('POST', '/v1/track', { email: 'mid@crash.test', event: 'crash-mid' }, { key: d.project.publicKey });
  await eventually(async () => (await executions(id))[0]?.status === 'WAITING', 10_000, 'waiting in the delay');
  await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes('mid@crash.test')), 10_000, 'the send');
  await d.kill();
  await d.restart();
  await env.advance(3_600_000 + 1000);
  await eventually(async () => (await executions(id))[0]?.status === 'COMPLETED', 10_000, 'completed after the restart');
  assert.is(env.sink.messages.filter((m) => m.rcptTo.includes('mid@crash.test')).length, 1, 'sent once');
});

test.run();
