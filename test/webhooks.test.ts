import { join } from 'node:path';
import Database from 'better-sqlite3';
import { networkInterfaces } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestDaemon } from './helpers/daemon.js';
import { signedAt, startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './helpers/http-receiver.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { onlyExecution, trackPublic, webhookFlow } from './helpers/webhook-flows.js';

let env: MailEnv;
let guarded: MailEnv;
let d: TestDaemon;
let hooks: HttpReceiver;

test.before(async () => {
  hooks = await startHttpReceiver();
  env = await startMailEnv({ config: { webhooks: { allowPrivate: true } } });
  guarded = await startMailEnv();
  d = env.daemon;
});
test.after(async () => {
  await env.close();
  await guarded.close();
  await hooks.close();
});

test('the default payload, signed: X-Postmill-Signature is the HMAC of "t.body" with the project secret (shown once, rotated by the CLI)', async () => {
  hooks.answer(() => ({ status: 200 }));
  const before = d.cli<{ id: string; webhookSecret: string }>('project', 'webhook-secret', d.project.id).webhookSecret;
  const rotated = d.cli<{ id: string; webhookSecret: string }>('project', 'webhook-secret', d.project.id);
  assert.is(rotated.id, d.project.id);
  assert.match(rotated.webhookSecret, /^whsec_[0-9a-f]{64}$/);
  const w = await webhookFlow(d, 'hook-default', { url: `${hooks.url}/default` });
  await trackPublic(d, 'payload@people.test', 'hook-default', { plan: 'pro' });
  await onlyExecution(d, w, ['COMPLETED']);
  const req = hooks.requests.find((r) => r.path === '/default')!;
  assert.is(req.method, 'POST');
  assert.is(req.headers['content-type'], 'application/json');
  const body = JSON.parse(req.body);
  assert.equal(body.contact, { email: 'payload@people.test', subscribed: true, data: { plan: 'pro' } });
  assert.equal(body.workflow, { id: w, name: 'hook-default' });
  assert.equal(body.event, { plan: 'pro' });
  assert.type(body.execution.id, 'string');
  const time = signedAt(rotated.webhookSecret, req);
  assert.ok(time !== null, `signed with the new secret: ${req.headers['x-postmill-signature']}`);
  assert.is(signedAt(before, req), null, 'the old secret no longer signs');
  assert.ok(Math.abs(time - Date.now() / 1000) < 60);
});

test('GET /settings/webhooks shows the signing secret (secret key only, one per project, made when missing); a webhook verifies with it; rotate-secret replaces it', async () => {
  hooks.answer(() => ({ status: 200 }));
  const settings = await d.request('GET', '/settings/webhooks');
  assert.is(settings.status, 200);
  assert.equal(Object.keys(settings.body).sort(), ['algorithm', 'format', 'header', 'signingSecret']);
  assert.is(settings.body.algorithm, 'HMAC-SHA256');
  assert.is(settings.body.header, 'X-Postmill-Signature');
  assert.match(settings.body.signingSecret, /^whsec_[0-9a-f]{64}$/);
  assert.is((await d.request('GET', '/settings/webhooks')).body.signingSecret, settings.body.signingSecret, 'reading does not change it');
  for (const key of [d.project.publicKey, null, 'sk_' + '0'.repeat(64)]) {
    assert.is((await d.request('GET', '/settings/webhooks', undefined, { key })).status, 401);
    assert.is((await d.request('POST', '/settings/webhooks/rotate-secret', undefined, { key })).status, 401);
  }
  const other = d.createProject('other');
  const otherSecret = (await d.request('GET', '/settings/webhooks', undefined, { key: other.secretKey })).body.signingSecret;
  assert.match(otherSecret, /^whsec_[0-9a-f]{64}$/);
  assert.is.not(otherSecret, settings.body.signingSecret);

  // what a receiver does: recompute the HMAC of "t.body" with the secret it read, compare, check the time
  const verify = (secret: string, req: ReceivedRequest) => {
    const t = signedAt(secret, req);
    return t !== null && Math.abs(Date.now() / 1000 - t) < 300;
  };
  const w = await webhookFlow(d, 'hook-verify', { url: `${hooks.url}/verify` });
  await trackPublic(d, 'verify@people.test', 'hook-verify');
  await onlyExecution(d, w, ['COMPLETED']);
  const first = hooks.requests.find((r) => r.path === '/verify')!;
  assert.ok(verify(settings.body.signingSecret, first));
  assert.not.ok(verify(otherSecret, first), "another project's secret does not verify it");

  const rotated = await d.request('POST', '/settings/webhooks/rotate-secret');
  assert.is(rotated.status, 200);
  assert.match(rotated.body.signingSecret, /^whsec_[0-9a-f]{64}$/);
  assert.is.not(rotated.body.signingSecret, settings.body.signingSecret);
  assert.is((await d.request('GET', '/settings/webhooks')).body.signingSecret, rotated.body.signingSecret);
  assert.is((await d.request('GET', '/settings/webhooks', undefined, { key: other.secretKey })).body.signingSecret, otherSecret, "the other project's secret stays");

  // a project whose secret was never made (a store from before secrets) gets one when it is read
  const store = new Database(join(d.dataDir, 'store', 'postmill.db'));
  store.prepare('UPDATE projects SET webhook_secret = NULL WHERE id = ?').run(other.id);
  store.close();
  const made = (await d.request('GET', '/settings/webhooks', undefined, { key: other.secretKey })).body.signingSecret;
  assert.match(made, /^whsec_[0-9a-f]{64}$/);
  assert.is((await d.request('GET', '/settings/webhooks', undefined, { key: other.secretKey })).body.signingSecret, made);
});

test('placeholders in the url, headers and a custom body; GET sends no body; redirects are followed', async () => {
  hooks.answer((req) => (req.path.startsWith('/moved') ? { status: 302, headers: { location: `/landed?from=${encodeURIComponent(req.path)}` } } : { status: 204 }));
  const w = await webhookFlow(d, 'hook-custom', {
    url: `${hooks.url}/moved/{{id}}?plan={{plan}}`,
    method: 'PUT',
    headers: { 'X-Plan': '{{data.plan}}', 'X-Event': '{{event.source}}' },
    body: { who: '{{email}}', nested: ['{{plan}}', 3] },
  });
  await trackPublic(d, 'custom@people.test', 'hook-custom', { plan: 'team', source: 'ads' });
  const execution = await onlyExecution(d, w, ['COMPLETED']);
  const first = hooks.requests.find((r) => r.path.startsWith('/moved/'))!;
  assert.is(first.method, 'PUT');
  assert.is(first.headers['x-plan'], 'team');
  assert.is(first.headers['x-event'], 'ads');
  assert.equal(JSON.parse(first.body), { who: 'custom@people.test', nested: ['team', 3] });
  assert.ok(first.path.endsWith('?plan=team'));
  assert.ok(hooks.requests.some((r) => r.path.startsWith('/landed')), 'the redirect was followed');
  assert.is(execution.status, 'COMPLETED');
});

test("a redirect to another origin gets none of the step's own headers (credentials stay with the URL's origin); ours go on", async () => {
  const other = await startHttpReceiver();
  try {
    other.answer(() => ({ status: 200 }));
    hooks.answer((req) => (req.path === '/hop' ? { status: 307, headers: { location: `${other.url}/elsewhere` } } : { status: 500 }));
    const w = await webhookFlow(d, 'hook-hop', { url: `${hooks.url}/hop`, headers: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k' } });
    await trackPublic(d, 'hop@people.test', 'hook-hop');
    await onlyExecution(d, w, ['COMPLETED']);
    const first = hooks.requests.find((r) => r.path === '/hop')!;
    assert.is(first.headers.authorization, 'Bearer s3cret');
    const landed = other.requests.find((r) => r.path === '/elsewhere')!;
    assert.is(landed.method, 'POST', '307 keeps the method and body');
    assert.is(landed.headers.authorization, undefined);
    assert.is(landed.headers['x-api-key'], undefined);
    assert.ok(landed.headers['x-postmill-signature'], 'the signature still lets the receiver check the body');
    assert.is(landed.headers['content-type'], 'application/json');
  } finally {
    await other.close();
  }
});

test('5xx and network errors are retried with backoff; a 4xx fails the execution at once; failures after 3 attempts fail it', async () => {
  let calls = 0;
  hooks.answer((req) => (req.path === '/flaky' ? { status: ++calls < 3 ? 503 : 200 } : req.path === '/gone' ? { status: 410 } : { status: 500 }));
  const flaky = await webhookFlow(d, 'hook-flaky', { url: `${hooks.url}/flaky` });
  const gone = await webhookFlow(d, 'hook-gone', { url: `${hooks.url}/gone` });
  const broken = await webhookFlow(d, 'hook-broken', { url: `${hooks.url}/broken` });
  await trackPublic(d, 'retry@people.test', 'hook-flaky');
  await trackPublic(d, 'retry@people.test', 'hook-gone');
  await trackPublic(d, 'retry@people.test', 'hook-broken');
  const failedAtOnce = await onlyExecution(d, gone, ['FAILED']);
  assert.match(failedAtOnce.error!, '410');
  assert.is(hooks.requests.filter((r) => r.path === '/gone').length, 1);
  // each retry is due a backoff after its attempt ends: move the clock on until both have settled
  await eventually(async () => {
    const settled = (await onlyExecution(d, broken, ['RUNNING', 'FAILED'])).status === 'FAILED' && (await onlyExecution(d, flaky, ['RUNNING', 'COMPLETED'])).status === 'COMPLETED';
    if (!settled) await env.advance(120_000);
    return settled;
  }, 20_000, 'retries settled');
  await onlyExecution(d, flaky, ['COMPLETED']);
  assert.is(calls, 3);
  const failed = await onlyExecution(d, broken, ['FAILED']);
  assert.match(failed.error!, '500');
  assert.is(hooks.requests.filter((r) => r.path === '/broken').length, 3);
});

/** A WEBHOOK step of a new workflow to `url`: the 422 its save answers (the guard runs when a step is saved, issue 32 item 9). */
async function refusedStep(daemon: TestDaemon, event: string, url: string): Promise<string> {
  const w = (await daemon.request('POST', '/workflows', { name: event, eventName: event })).body;
  const step = await daemon.request('POST', `/workflows/${w.id}/steps`, { type: 'WEBHOOK', name: 'hook', config: { url } });
  assert.is(step.status, 422, JSON.stringify(step.body));
  return JSON.stringify(step.body);
}

test('the address guard refuses private, loopback, link-local and metadata targets, checked on the resolved address', async () => {
  const g = guarded.daemon;
  guarded.dns.set('innocent.test', 'A', ['127.0.0.1']);
  assert.match(await refusedStep(g, 'hook-name', `http://innocent.test:${hooks.port}/sneaky`), 'loopback');
  assert.match(await refusedStep(g, 'hook-ip', `${hooks.url}/direct`), 'loopback');
  assert.not.ok(hooks.requests.some((r) => r.path === '/sneaky' || r.path === '/direct'), 'nothing reached the receiver');
});

test("the machine's own non-loopback addresses are refused, by literal and by name (a listener on 0.0.0.0 answers there)", async () => {
  const g = guarded.daemon;
  const own = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && entry.family === 'IPv4')
    .map((entry) => entry!.address);
  if (own.length === 0) return console.log('  (no non-loopback IPv4 address here: test/address-guard.test.ts covers the rule)');
  const [address] = own as [string];
  guarded.dns.set('own.test', 'A', [address]);
  for (const refusal of [await refusedStep(g, 'hook-own-ip', `http://${address}:${hooks.port}/own`), await refusedStep(g, 'hook-own-name', `http://own.test:${hooks.port}/own`)]) {
    assert.match(refusal, address);
    assert.match(refusal, /not globally reachable|address of this machine/);
  }
  assert.not.ok(hooks.requests.some((r) => r.path === '/own'));
});

test.run();
