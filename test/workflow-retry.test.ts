// A failed execution is retried from the step it failed at: the receiver that answered 410 now
// answers 200, and the retry completes the execution with one more request; what did not fail,
// a step since removed, or a contact back in the workflow is 409.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { onlyExecution, trackPublic, webhookFlow } from './helpers/webhook-flows.js';

let env: MailEnv;
let d: TestDaemon;
let hooks: HttpReceiver;
let receiverUp = false;

test.before(async () => {
  hooks = await startHttpReceiver();
  hooks.answer(() => ({ status: receiverUp ? 200 : 410 }));
  env = await startMailEnv({ config: { webhooks: { allowPrivate: true } } });
  d = env.daemon;
});
test.after(async () => {
  await env.close();
  await hooks.close();
});

const retry = (workflowId: string, executionId: string) => d.request('POST', `/workflows/${workflowId}/executions/${executionId}/retry`);

test('a failed execution runs its failed step again and completes; a second retry of it is 409', async () => {
  receiverUp = false;
  const w = await webhookFlow(d, 'retry-hook', { url: `${hooks.url}/retry` });
  await trackPublic(d, 'again@people.test', 'retry-hook');
  const failed = await onlyExecution(d, w, ['FAILED']);
  assert.match(failed.error!, '410');

  receiverUp = true;
  const retried = await retry(w, failed.id);
  assert.is(retried.status, 200, JSON.stringify(retried.body));
  assert.ok(['RUNNING', 'COMPLETED'].includes(retried.body.status), retried.body.status);
  assert.is(retried.body.error, null);
  const done = await onlyExecution(d, w, ['COMPLETED']);
  assert.is(done.id, failed.id, 'the same execution, not a new one');
  assert.is(hooks.requests.filter((r) => r.path === '/retry').length, 2, 'the failed request, then the retry');

  const again = await retry(w, failed.id);
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'CONFLICT');
});

test('409 when the failed step was removed since, or the contact is in the workflow again; 404 for an unknown execution', async () => {
  receiverUp = false;
  const removed = await webhookFlow(d, 'retry-removed', { url: `${hooks.url}/removed` });
  await trackPublic(d, 'removed@people.test', 'retry-removed');
  const failed = await onlyExecution(d, removed, ['FAILED']);
  const graph = (await d.request('GET', `/workflows/${removed}`)).body;
  const hook = graph.steps.find((s: { type: string }) => s.type === 'WEBHOOK');
  assert.is((await d.request('PATCH', `/workflows/${removed}`, { enabled: false })).status, 200);
  assert.is((await d.request('DELETE', `/workflows/${removed}/steps/${hook.id}`)).status, 204);
  const gone = await retry(removed, failed.id);
  assert.is(gone.status, 409);
  assert.match(gone.body.error.message, 'no longer in the workflow');

  // allowReentry: the failed execution's contact starts again and waits in a DELAY after the hook
  let reentryCalls = 0;
  hooks.answer((req) => ({ status: req.path === '/reentry' ? (++reentryCalls === 1 ? 410 : 200) : receiverUp ? 200 : 410 }));
  const reentry = (await d.request('POST', '/workflows', { name: 'reentry', eventName: 'retry-reentry', allowReentry: true })).body;
  const hookStep = (await d.request('POST', `/workflows/${reentry.id}/steps`, { type: 'WEBHOOK', name: 'hook', config: { url: `${hooks.url}/reentry` } })).body;
  const delay = (await d.request('POST', `/workflows/${reentry.id}/steps`, { type: 'DELAY', name: 'later', config: { amount: 1, unit: 'days' } })).body;
  await d.request('POST', `/workflows/${reentry.id}/transitions`, { fromStepId: reentry.steps[0].id, toStepId: hookStep.id });
  await d.request('POST', `/workflows/${reentry.id}/transitions`, { fromStepId: hookStep.id, toStepId: delay.id });
  assert.is((await d.request('PATCH', `/workflows/${reentry.id}`, { enabled: true })).status, 200);
  await trackPublic(d, 'back@people.test', 'retry-reentry');
  const first = await onlyExecution(d, reentry.id, ['FAILED']);
  const manual = await d.request('POST', `/workflows/${reentry.id}/executions`, { email: 'back@people.test' });
  assert.is(manual.status, 201, JSON.stringify(manual.body));
  await eventually(async () => (await d.request('GET', `/workflows/${reentry.id}/executions/${manual.body.id}`)).body.status === 'WAITING', 10_000, 'the second execution waits');
  const refused = await retry(reentry.id, first.id);
  assert.is(refused.status, 409);
  assert.is(refused.body.error.details.reason, 'already-active');

  assert.is((await retry(reentry.id, '00000000-0000-0000-0000-000000000000')).status, 404);
});

test.run();
