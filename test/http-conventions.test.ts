import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 5 }, adminToken: 'admin-secret-token-0123456789abcdef' } });
});
test.after(async () => d.dispose());

function assertEnvelope(body: any, status: number, code?: string): void {
  assert.is(body.success, false);
  assert.is(body.error.statusCode, status);
  if (code) assert.is(body.error.code, code);
  assert.type(body.error.message, 'string');
  assert.type(body.error.requestId, 'string');
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
}

test('GET /health answers without a key', async () => {
  const r = await d.request('GET', '/health', undefined, { key: null });
  assert.is(r.status, 200);
  assert.equal(r.body, { status: 'ok' });
});

test('errors carry the envelope and the request id header, echoing a sane caller id', async () => {
  const r = await d.request('GET', '/nowhere', undefined, { headers: { 'x-request-id': 'abc-123' } });
  assert.is(r.status, 404);
  assertEnvelope(r.body, 404, 'NOT_FOUND');
  assert.is(r.headers.get('x-request-id'), 'abc-123');
  assert.is(r.body.error.requestId, 'abc-123');
  const generated = await d.request('GET', '/nowhere', undefined, { headers: { 'x-request-id': 'bad id\twith spaces' } });
  assert.ok(/^[0-9a-f-]{36}$/.test(generated.headers.get('x-request-id')!));
});

test('keys: missing, malformed, unknown and public keys on secret routes are 401 INVALID_API_KEY', async () => {
  const p = d.createProject('auth');
  for (const key of [null, 'garbage', 'sk_' + '0'.repeat(64), p.publicKey]) {
    const r = await d.request('GET', '/contacts', undefined, { key });
    assert.is(r.status, 401, String(key));
    assertEnvelope(r.body, 401, 'INVALID_API_KEY');
  }
  const basic = await d.request('GET', '/contacts', undefined, { key: null, headers: { authorization: `Basic ${p.secretKey}` } });
  assert.is(basic.status, 401);
});

test('malformed JSON and bodies over 1 MB are 400 in the envelope', async () => {
  const p = d.createProject('bodies');
  const broken = await d.request('POST', '/contacts', undefined, { key: p.secretKey, raw: '{"email": "x@y.test",' });
  assert.is(broken.status, 400);
  assertEnvelope(broken.body, 400, 'BAD_REQUEST');
  const huge = await d.request('POST', '/contacts', undefined, { key: p.secretKey, raw: JSON.stringify({ email: 'h@y.test', data: { x: 'a'.repeat(1024 * 1024) } }) });
  assert.is(huge.status, 400);
  assertEnvelope(huge.body, 400, 'BAD_REQUEST');
});

test('a client still sending an oversized body reads the 400, declared or chunked, never a reset connection', async () => {
  // three projects of four requests: the limit here is five a minute per project
  const projects = ['oversized-1', 'oversized-2', 'oversized-3'].map((name) => d.createProject(name));
  const body = JSON.stringify({ email: 'h@y.test', data: { x: 'a'.repeat(3 * 1024 * 1024) } });
  const chunked = () =>
    new ReadableStream({
      start(controller) {
        for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(new TextEncoder().encode(body.slice(at, at + 64 * 1024)));
        controller.close();
      },
    });
  const send = (streamed: boolean, key: string) =>
    fetch(`${d.url}/contacts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: streamed ? chunked() : body,
      ...(streamed ? { duplex: 'half' } : {}),
    } as RequestInit).then(async (r) => ({ status: r.status, body: await r.json() }));
  // many at once: the answer goes out while bodies are still arriving
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 === 0, projects[i % 3]!.secretKey)));
  for (const answer of answers) {
    assert.is(answer.status, 400);
    assertEnvelope(answer.body, 400, 'BAD_REQUEST');
  }
});

test('rate limit: headers on every answer, 429 with Retry-After past the limit, per project', async () => {
  const p = d.createProject('limited');
  const other = d.createProject('unlimited');
  for (let i = 0; i < 5; i++) {
    const r = await d.request('GET', '/contacts', undefined, { key: p.secretKey });
    assert.is(r.status, 200);
    assert.is(r.headers.get('ratelimit-limit'), '5');
    assert.is(r.headers.get('ratelimit-remaining'), String(4 - i));
    assert.ok(Number(r.headers.get('ratelimit-reset')) > 0);
  }
  const refused = await d.request('GET', '/contacts', undefined, { key: p.secretKey });
  assert.is(refused.status, 429);
  assertEnvelope(refused.body, 429, 'RATE_LIMIT_EXCEEDED');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.is(refused.body.error.details.retryAfter, Number(refused.headers.get('retry-after')));
  assert.is((await d.request('GET', '/contacts', undefined, { key: other.secretKey })).status, 200, 'another project is not limited');
});

test('a disabled project may read but not write (403 PROJECT_DISABLED); enabling restores it', async () => {
  const p = d.createProject('toggle');
  d.cli('project', 'disable', p.id);
  assert.is((await d.request('GET', '/contacts', undefined, { key: p.secretKey })).status, 200);
  const write = await d.request('POST', '/contacts', { email: 'w@t.test' }, { key: p.secretKey });
  assert.is(write.status, 403);
  assertEnvelope(write.body, 403, 'PROJECT_DISABLED');
  d.cli('project', 'enable', p.id);
  assert.is((await d.request('POST', '/contacts', { email: 'w@t.test' }, { key: p.secretKey })).status, 201);
});

test('regenerate-keys: own secret key or the admin token; old keys stop at once; another project is 404', async () => {
  const p = d.createProject('rotate');
  const other = d.createProject('other');
  const self = await d.request('POST', `/users/@me/projects/${p.id}/regenerate-keys`, undefined, { key: p.secretKey });
  assert.is(self.status, 200);
  assert.is(self.body.id, p.id);
  assert.is(self.body.name, 'rotate');
  assert.ok(self.body.secretKey.startsWith('sk_') && self.body.publicKey.startsWith('pk_'));
  assert.is((await d.request('GET', '/contacts', undefined, { key: p.secretKey })).status, 401, 'old key is dead');
  assert.is((await d.request('GET', '/contacts', undefined, { key: self.body.secretKey })).status, 200);

  const foreign = await d.request('POST', `/users/@me/projects/${p.id}/regenerate-keys`, undefined, { key: other.secretKey });
  assert.is(foreign.status, 404);
  const admin = await d.request('POST', `/users/@me/projects/${p.id}/regenerate-keys`, undefined, { key: 'admin-secret-token-0123456789abcdef' });
  assert.is(admin.status, 200);
  assert.is((await d.request('GET', '/contacts', undefined, { key: self.body.secretKey })).status, 401);
  const wrongAdmin = await d.request('POST', `/users/@me/projects/${p.id}/regenerate-keys`, undefined, { key: 'admin-secret-tokeX' });
  assert.is(wrongAdmin.status, 401);
});

test('keys rotated by the CLI stop working in the running daemon at once', async () => {
  const p = d.createProject('cli-rotate');
  assert.is((await d.request('GET', '/contacts', undefined, { key: p.secretKey })).status, 200);
  const rotated = d.cli('project', 'rotate-keys', p.id);
  assert.is((await d.request('GET', '/contacts', undefined, { key: p.secretKey })).status, 401);
  assert.is((await d.request('GET', '/contacts', undefined, { key: rotated.secretKey })).status, 200);
});

test.run();
