// A WEBHOOK step whose requests the address guard would refuse is refused when it is saved (422 on
// config.url) and keeps its workflow from being enabled (400 naming the step), instead of failing the
// first execution that reaches it: the same guard as the requests (src/webhooks), the host resolved
// through the daemon's resolver now.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let guarded: MailEnv;
let open: MailEnv;

test.before(async () => {
  [guarded, open] = await Promise.all([startMailEnv(), startMailEnv({ config: { webhooks: { allowPrivate: true } } })]);
});
test.after(async () => {
  await Promise.all([guarded?.close(), open?.close()]);
});

async function workflow(env: MailEnv, name: string): Promise<{ id: string; steps: { id: string }[] }> {
  const r = await env.daemon.request('POST', '/workflows', { name, eventName: name });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

const addWebhook = (env: MailEnv, workflowId: string, url: string) =>
  env.daemon.request('POST', `/workflows/${workflowId}/steps`, { type: 'WEBHOOK', name: 'Notify CRM', config: { url } });

function assertUrlRefused(r: { status: number; body: any }, why: RegExp): void {
  assert.is(r.status, 422, JSON.stringify(r.body));
  assert.is(r.body.error.code, 'VALIDATION_ERROR');
  const [error] = r.body.error.errors;
  assert.is(error.field, 'config.url');
  assert.match(error.message, why);
}

test('without webhooks.allowPrivate: a loopback URL, a name resolving to loopback, a name that does not resolve, a lookup that fails: 422 on config.url', async () => {
  const w = await workflow(guarded, 'guarded');
  guarded.dns.set('hooks.loopback.test', 'A', ['127.0.0.1']);
  guarded.dns.misbehave('hooks.broken.test', 'servfail');
  assertUrlRefused(await addWebhook(guarded, w.id, 'http://127.0.0.1:9/hook'), /refused: 127\.0\.0\.1 is in a range that is not globally reachable: loopback.*allowPrivate/);
  assertUrlRefused(await addWebhook(guarded, w.id, 'https://hooks.loopback.test/in/{{data.id}}'), /hooks\.loopback\.test refused: 127\.0\.0\.1/);
  assertUrlRefused(await addWebhook(guarded, w.id, 'https://nowhere.invalid.test/in'), /nowhere\.invalid\.test has no address/);
  assertUrlRefused(await addWebhook(guarded, w.id, 'https://hooks.broken.test/in'), /hooks\.broken\.test could not be resolved/);
  assertUrlRefused(await addWebhook(guarded, w.id, 'http://[::1]:9/hook'), /::1 is in a range that is not globally reachable/);
  const graph = await guarded.daemon.request('GET', `/workflows/${w.id}`);
  assert.is(graph.body.steps.length, 1, 'nothing was saved but the trigger');
});

test('with webhooks.allowPrivate a loopback target saves; a step changed to a name that does not resolve is 422 and keeps its URL', async () => {
  const w = await workflow(open, 'open');
  open.dns.set('hooks.local.test', 'A', ['127.0.0.1']);
  const step = await addWebhook(open, w.id, 'http://hooks.local.test:9/hook');
  assert.is(step.status, 201, JSON.stringify(step.body));
  const changed = await open.daemon.request('PATCH', `/workflows/${w.id}/steps/${step.body.id}`, { config: { url: 'http://gone.local.test:9/hook' } });
  assertUrlRefused(changed, /gone\.local\.test has no address/);
  const graph = await open.daemon.request('GET', `/workflows/${w.id}`);
  assert.is(graph.body.steps.find((s: { id: string }) => s.id === step.body.id).config.url, 'http://hooks.local.test:9/hook');
});

test('enabling checks every WEBHOOK step again: a name that stopped resolving is 400 naming the step; once it resolves, enabled', async () => {
  const w = await workflow(open, 'moving');
  open.dns.set('hooks.moving.test', 'A', ['127.0.0.1']);
  const step = await addWebhook(open, w.id, 'http://hooks.moving.test:9/hook');
  assert.is(step.status, 201, JSON.stringify(step.body));
  assert.is((await open.daemon.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0]!.id, toStepId: step.body.id })).status, 201);

  open.dns.clear('hooks.moving.test');
  const refused = await open.daemon.request('PATCH', `/workflows/${w.id}`, { enabled: true });
  assert.is(refused.status, 400, JSON.stringify(refused.body));
  assert.is(refused.body.error.code, 'BAD_REQUEST');
  assert.match(refused.body.error.message, 'WEBHOOK step "Notify CRM" would be refused: hooks.moving.test has no address');
  assert.is(refused.body.error.details.stepId, step.body.id);
  assert.is((await open.daemon.request('GET', `/workflows/${w.id}`)).body.enabled, false);

  open.dns.set('hooks.moving.test', 'A', ['127.0.0.1']);
  const enabled = await open.daemon.request('PATCH', `/workflows/${w.id}`, { enabled: true });
  assert.is(enabled.status, 200, JSON.stringify(enabled.body));
  assert.is(enabled.body.enabled, true);
});

test.run();
