// POST /workflows/{id}/test-webhook through the real daemon: a WEBHOOK config sent once to a loopback
// receiver, signed as the step signs (a receiver verifies it with the project's secret), filled for
// a contact or a stand-in; the config checked as a step's (422 naming config.*); the same address
// guard as the step (a daemon without webhooks.allowPrivate refuses loopback); nothing stored.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { signedAt, startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let guarded: MailEnv;
let hooks: HttpReceiver;

test.before(async () => {
  hooks = await startHttpReceiver();
  [env, guarded] = await Promise.all([startMailEnv({ config: { webhooks: { allowPrivate: true } } }), startMailEnv()]);
});
test.after(async () => {
  await Promise.all([env?.close(), guarded?.close()]);
  await hooks?.close();
});

const workflow = async (e: MailEnv, name: string) => (await e.daemon.request('POST', '/workflows', { name, eventName: name })).body as { id: string; name: string };

test('the test request carries the default payload for a contact, signed with the project secret, and answers the receiver\'s status and body', async () => {
  const d = env.daemon;
  hooks.answer(() => ({ status: 202 }));
  const w = await workflow(env, 'tested');
  const contact = (await d.request('POST', '/contacts', { email: 'ann@hook.test', data: { plan: 'pro' } })).body;
  const before = hooks.requests.length;
  const r = await d.request('POST', `/workflows/${w.id}/test-webhook`, { config: { url: `${hooks.url}/in/{{data.plan}}?who={{email}}`, headers: { 'X-Tier': '{{plan}}' } }, contactId: contact.id });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.ok, true);
  assert.is(r.body.status, 202);
  assert.is(r.body.response, '{"ok":true}');
  assert.is(r.body.error, null);
  assert.match(r.body.delivery, /^test:[0-9a-f-]{36}$/);
  assert.is(hooks.requests.length, before + 1, 'one request, no retry');
  const req = hooks.requests.at(-1)!;
  assert.is(req.path, '/in/pro?who=ann%40hook.test');
  assert.is(req.headers['x-tier'], 'pro');
  assert.is(req.headers['x-postmill-delivery'], r.body.delivery);
  const body = JSON.parse(req.body);
  assert.equal(body.contact, { email: 'ann@hook.test', subscribed: true, data: { plan: 'pro' } });
  assert.equal(body.workflow, { id: w.id, name: 'tested' });
  assert.equal(body.event, {});
  // what the form tells a receiver to do
  const secret = (await d.request('GET', '/settings/webhooks')).body.signingSecret as string;
  assert.ok(signedAt(secret, req), `signed with the project's secret: ${req.headers['x-postmill-signature']}`);
  assert.equal((await d.request('GET', `/workflows/${w.id}/executions`)).body.total, 0, 'a test is no execution');
});

test('without a contact a stand-in with no data fills it; a 4xx or an unreachable receiver is reported, not thrown', async () => {
  const d = env.daemon;
  const w = await workflow(env, 'stand-in');
  hooks.answer(() => ({ status: 410 }));
  const refused = await d.request('POST', `/workflows/${w.id}/test-webhook`, { config: { url: `${hooks.url}/gone`, method: 'PUT', body: { who: '{{email}}' } } });
  assert.is(refused.status, 200);
  assert.equal([refused.body.ok, refused.body.status, refused.body.error], [false, 410, 'the webhook answered 410']);
  assert.is(hooks.requests.at(-1)!.method, 'PUT');
  assert.equal(JSON.parse(hooks.requests.at(-1)!.body), { who: 'someone@example.com' });

  const closed = await startHttpReceiver();
  await closed.close();
  const down = await d.request('POST', `/workflows/${w.id}/test-webhook`, { config: { url: `${closed.url}/x` } });
  assert.is(down.status, 200);
  assert.is(down.body.ok, false);
  assert.is(down.body.status, null);
  assert.match(down.body.error, /ECONNREFUSED/);
});

test('the config is checked as a step\'s: 422 with config.* field errors; an unknown contact is 400', async () => {
  const d = env.daemon;
  const w = await workflow(env, 'checked');
  const before = hooks.requests.length;
  for (const [config, field] of [
    [{ url: 'ftp://x.test/' }, 'config.url'],
    [{ url: 'https://{{data.host}}/x' }, 'config.url'],
    [{ url: 'https://h.test/', headers: { Host: 'evil.test' } }, 'config.headers.Host'],
    [{ url: 'https://h.test/', method: 'TRACE' }, 'config.method'],
  ] as const) {
    const r = await d.request('POST', `/workflows/${w.id}/test-webhook`, { config });
    assert.is(r.status, 422, JSON.stringify(config));
    assert.ok(r.body.error.errors.some((e: { field: string }) => e.field === field), `${JSON.stringify(config)}: ${JSON.stringify(r.body.error.errors)}`);
  }
  assert.is((await d.request('POST', `/workflows/${w.id}/test-webhook`, {})).status, 422, 'config is required');
  const stranger = await d.request('POST', `/workflows/${w.id}/test-webhook`, { config: { url: `${hooks.url}/x` }, contactId: '0190a0a0-0000-7000-8000-000000000000' });
  assert.is(stranger.status, 400);
  assert.is(hooks.requests.length, before, 'nothing was sent');
});

test('the step\'s address guard: without webhooks.allowPrivate a loopback receiver is refused before connecting', async () => {
  const w = await workflow(guarded, 'guarded');
  const before = hooks.requests.length;
  const r = await guarded.daemon.request('POST', `/workflows/${w.id}/test-webhook`, { config: { url: `${hooks.url}/private` } });
  assert.is(r.status, 200);
  assert.is(r.body.ok, false);
  assert.match(r.body.error, /refused.*allowPrivate/);
  assert.is(hooks.requests.length, before);
});

test.run();
