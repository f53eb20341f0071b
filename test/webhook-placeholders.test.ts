// Contact data that the public key writes fills WEBHOOK placeholders: whatever it holds, the daemon
// lives, the request goes where the step says, and headers arrive encoded as documented.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { assertAlive, executionsSettled, onlyExecution, trackPublic, webhookFlow } from './helpers/webhook-flows.js';

let env: MailEnv;
let d: TestDaemon;
let hooks: HttpReceiver;

test.before(async () => {
  hooks = await startHttpReceiver();
  env = await startMailEnv({ config: { webhooks: { allowPrivate: true } } });
  d = env.daemon;
});
test.after(async () => {
  await env.close();
  await hooks.close();
});

const addStep = async (config: Record<string, unknown>) => {
  const w = (await d.request('POST', '/workflows', { name: 'save-checks', eventName: 'save-checks' })).body;
  return { workflow: w.id as string, reply: await d.request('POST', `/workflows/${w.id}/steps`, { type: 'WEBHOOK', name: 'hook', config }) };
};

test('a header value that cannot be sent is refused when the step is saved (422 naming the header), on create and on patch', async () => {
  for (const value of ['李雷', 'café', 'a\u0001b', 'a\r\nX-Injected: 1', 'nul\u0000', ' padded ', '{{name ?? 雷}}']) {
    const { reply } = await addStep({ url: `${hooks.url}/x`, headers: { 'X-Name': value } });
    assert.is(reply.status, 422, JSON.stringify(value));
    assert.is(reply.body.error.errors[0].field, 'config.headers.X-Name');
  }
  for (const name of ['Host', 'Content-Length', 'Transfer-Encoding', 'X-Postmill-Signature']) {
    const { reply } = await addStep({ url: `${hooks.url}/x`, headers: { [name]: '1' } });
    assert.is(reply.status, 422, name);
    assert.is(reply.body.error.errors[0].field, `config.headers.${name}`);
  }
  const { workflow, reply } = await addStep({ url: `${hooks.url}/x`, headers: { Authorization: 'Bearer {{data.token}}', 'X-Name': '{{name}}' } });
  assert.is(reply.status, 201);
  const patched = await d.request('PATCH', `/workflows/${workflow}/steps/${reply.body.id}`, { config: { url: `${hooks.url}/x`, headers: { 'X-Name': '李雷' } } });
  assert.is(patched.status, 422);
  assert.is(patched.body.error.errors[0].field, 'config.headers.X-Name');
});

test('a URL whose host, port or credentials hold a placeholder is refused when saved', async () => {
  for (const url of ['http://{{data.host}}/x', `http://127.0.0.1:{{port}}/x`, 'http://{{user}}@127.0.0.1/x', 'http:///{{host}}/x', 'http://127.0.0.1{{suffix}}']) {
    const { reply } = await addStep({ url });
    assert.is(reply.status, 422, url);
    assert.is(reply.body.error.errors[0].field, 'config.url');
    assert.match(reply.body.error.errors[0].message, 'host, port and credentials');
  }
});

test('header placeholders filled by /v1/track (public key) with non-Latin-1 text, CR/LF, NUL and controls: the daemon lives, every header arrives percent-encoded', async () => {
  hooks.answer(() => ({ status: 200 }));
  const names = ['李雷', 'a\r\nX-Injected: 1', 'nul\u0000byte', 'bell\u0007', 'tab\there', '50% off', 'Zoë ✓'];
  const w = await webhookFlow(d, 'hook-names', { url: `${hooks.url}/names`, headers: { 'X-Name': '{{name}}', 'X-Both': 'plan={{data.plan}}; name={{name}}' } });
  for (const [i, name] of names.entries()) {
    assert.is((await trackPublic(d, `name${i}@people.test`, 'hook-names', { name, plan: 'pro' })).status, 200);
  }
  const executions = await executionsSettled(d, w, names.length, ['COMPLETED', 'FAILED'], 15_000);
  assert.equal(
    executions.filter((e) => e.status !== 'COMPLETED'),
    [],
    'every execution completed',
  );
  await assertAlive(d);
  const received = hooks.requests.filter((r) => r.path === '/names');
  assert.is(received.length, names.length);
  const sent = received.map((r) => decodeURIComponent(String(r.headers['x-name']))).sort();
  assert.equal(sent, [...names].sort());
  for (const r of received) {
    assert.is(r.headers['x-injected'], undefined, 'no header was injected');
    assert.match(String(r.headers['x-both']), /^plan=pro; name=[\x21-\x7e]+$/);
  }
});

test('URL placeholders are encoded for where they stand: data cannot move the request to another path, query or host', async () => {
  hooks.answer(() => ({ status: 200 }));
  const w = await webhookFlow(d, 'hook-paths', { url: `${hooks.url}/users/{{data.v}}/hook?q={{data.v}}&fixed=1#{{data.v}}` });
  const values = ['../admin?x=1#', '%2e%2e', '@evil.test', '\\..\\admin', '李雷', 'a&fixed=0', '../../..'];
  for (const [i, v] of values.entries()) assert.is((await trackPublic(d, `path${i}@people.test`, 'hook-paths', { v })).status, 200);
  await executionsSettled(d, w, values.length, ['COMPLETED'], 15_000);
  const paths = hooks.requests.filter((r) => r.path.startsWith('/users/')).map((r) => r.path);
  const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  assert.equal(paths.sort(), values.map((v) => `/users/${enc(v)}/hook?q=${enc(v)}&fixed=1`).sort());
  assert.not.ok(
    hooks.requests.some((r) => r.path.startsWith('/admin') || r.path === '/hook'),
    'nothing reached another path',
  );
});

test('a value that would make a path segment ".." fails the execution with a reason, and sends nothing', async () => {
  const w = await webhookFlow(d, 'hook-dots', { url: `${hooks.url}/files/{{data.v}}/x` });
  await trackPublic(d, 'dots@people.test', 'hook-dots', { v: '..' });
  const execution = await onlyExecution(d, w, ['FAILED']);
  assert.match(execution.error!, 'path segment');
  assert.not.ok(hooks.requests.some((r) => r.path.startsWith('/files') || r.path === '/x'));
});

test("a step whose outcome the rules refuse (UPDATE_CONTACT past a contact's 200 keys) fails with the reason instead of retrying forever", async () => {
  // valid when saved; refused only for this contact, whose data the public key filled to the limit
  const w = (await d.request('POST', '/workflows', { name: 'full', eventName: 'full' })).body;
  const step = await d.request('POST', `/workflows/${w.id}/steps`, { type: 'UPDATE_CONTACT', name: 'one more', config: { updates: { oneMore: 1 } } });
  assert.is(step.status, 201);
  await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: step.body.id });
  assert.is((await d.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  const full = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
  assert.is((await trackPublic(d, 'full@people.test', 'filled', full)).status, 200);
  await trackPublic(d, 'full@people.test', 'full');
  const execution = await onlyExecution(d, w.id, ['FAILED']);
  assert.match(execution.error!, 'at most 200 keys');
  await assertAlive(d);
});

test.run();
