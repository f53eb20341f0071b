import type { Router } from '@koa/router';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { assemble } from '../src/assembly.js';
import { createDns } from '../src/dns/resolver.js';
import { createHttpApp } from '../src/api/app.js';
import { testHookRoutes } from '../src/api/test-hooks.js';
import { JobRunner } from '../src/jobs/runner.js';
import { loadSchemas } from '../src/http/validate.js';
import type { Logger } from '../src/log.js';
import { modules } from '../src/modules.js';
import { openStore } from '../src/store/db.js';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { startMailEnv, ADMIN } from './helpers/mail-env.js';
import { responseChecker } from './helpers/openapi.js';

type Json = Record<string, any>;

/** The app exactly as the daemon composes it (every module, the test hooks), served on a free loopback port. */
async function composedApp() {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-openapi-'));
  const config = loadConfig(null, { POSTMILL_DATA_DIR: dir, POSTMILL_TEST_HOOKS: 'true', POSTMILL_ADMIN_TOKEN: ADMIN });
  const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const clock = new ShiftableClock();
  const db = openStore(dir);
  const parts = assemble({ db, clock, config, log, dns: createDns([]) });
  loadSchemas();
  const koa = createHttpApp(parts.core, parts, modules(parts).flatMap((m) => (m.routes ? [m.routes] : [])), [testHookRoutes(db, clock, parts.threads, new JobRunner(parts.core.jobs, clock, log), ADMIN)]);
  const server = createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    koa,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await parts.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('every route mounted in the Koa app is in GET /openapi.json, with the schemas it names', async () => {
  const app = await composedApp();
  try {
    // koa-router marks its dispatch middleware with the router: the routes as mounted, found independently of the document.
    const routers = app.koa.middleware.map((m) => (m as { router?: Router }).router).filter((r): r is Router => r !== undefined);
    const mounted = routers.flatMap((r) =>
      r.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`)),
    );
    assert.ok(mounted.length > 40, `found only ${mounted.length} routes`);
    const res = await fetch(`${app.url}/openapi.json`);
    assert.is(res.status, 200);
    const doc = (await res.json()) as Json;
    assert.is(doc.openapi, '3.1.0');
    const documented = new Set(Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    const missing = mounted.filter((r) => !documented.has(r));
    assert.equal(missing, [], `routes without describe({...}) beside them: ${missing.join(', ')}`);
    assert.is(documented.size, new Set(mounted).size);

    // Every reference points at a schema of the document, and every schema compiles.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)/g)].map((m) => m[1]!);
    const schemas = doc.components.schemas as Json;
    assert.equal(
      refs.filter((name) => !(name in schemas)),
      [],
      'dangling references',
    );
    const ajv = new Ajv({ strict: false, validateSchema: false });
    (formats as unknown as (a: Ajv) => Ajv)(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    for (const name of Object.keys(schemas)) ajv.getSchema(`openapi#/components/schemas/${name}`);
    // The request bodies are the very schemas the routes validate with.
    assert.equal(doc.paths['/v1/send'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/send' });
    assert.equal(doc.paths['/v1/send'].post.security, [{ secretKey: [] }, { session: ['MEMBER'] }], 'the key kind and the least role come from the guard');
    assert.equal(doc.paths['/domains'].post.security, [{ secretKey: [] }, { session: ['ADMIN'] }]);
    assert.equal(doc.paths['/members'].get.security, [{ secretKey: [] }, { session: ['OWNER'] }]);
    assert.is(doc.paths['/members'].get['x-postmill-role'], 'OWNER');
    assert.equal(doc.paths['/users/@me/projects/{id}/regenerate-keys'].post.security, [{ adminToken: [] }, { secretKey: [] }, { session: ['ADMIN'] }]);
    assert.equal(doc.paths['/auth/me'].get.security, [{ session: [] }]);
    assert.equal(doc.paths['/auth/login'].post.security, []);
    assert.equal(doc.paths['/v1/track'].post.security, [{ publicKey: [] }]);
    assert.ok(doc.paths['/v1/send'].post.parameters.some((p: Json) => p.name === 'Idempotency-Key'));
    assert.equal(doc.paths['/metrics'].get.security, [{ adminToken: [] }]);
    // The CSV upload, which no JSON schema validates, is a multipart body of its one file field.
    const upload = doc.paths['/contacts/import'].post.requestBody.content;
    assert.equal(Object.keys(upload), ['multipart/form-data']);
    assert.equal(upload['multipart/form-data'].schema.required, ['file']);
    assert.is(upload['multipart/form-data'].schema.properties.file.contentMediaType, 'text/csv');
  } finally {
    await app.close();
  }
});

test('the answer checker finds what does not match the document', async () => {
  const app = await composedApp();
  try {
    const check = responseChecker((await (await fetch(`${app.url}/openapi.json`)).json()) as Json);
    const contact = {
      id: '4f0c1f1e-4b7b-4d5e-9a8e-0c0c0c0c0c0c',
      email: 'a@b.test',
      subscribed: true,
      data: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    assert.is(check('GET', `/contacts/${contact.id}`, 200, 'application/json', contact), null);
    assert.match(check('GET', `/contacts/${contact.id}`, 200, 'application/json', { ...contact, email: undefined }) ?? '', 'email');
    assert.match(check('GET', `/contacts/${contact.id}`, 200, 'application/json', { ...contact, subscribed: 'yes' }) ?? '', 'subscribed');
    assert.match(check('GET', '/health', 201, 'application/json', { status: 'ok' }) ?? '', 'not documented');
    assert.match(check('GET', '/health', 200, 'text/html', 'ok') ?? '', 'text/html');
    assert.match(check('POST', '/contacts', 422, 'application/json', { nope: true }) ?? '', 'schema');
    assert.is(check('POST', '/contacts', 400, 'application/json', { error: 'email is required' }), null, 'the flat error');
    assert.is(check('GET', '/contacts/fields', 200, 'application/json', { fields: [], count: 0 }), null, 'a literal segment wins over {id}');
  } finally {
    await app.close();
  }
});

test('live answers of every documented route with a response schema match the document', async () => {
  const env = await startMailEnv();
  const d = env.daemon;
  try {
    // Every d.request of every suite is checked against the document (test/helpers/daemon.ts); this
    // walk makes sure each response schema is met live at least once.
    const check = responseChecker((await (await fetch(`${d.url}/openapi.json`)).json()) as Json);
    const seen = new Set<string>();
    const call = async (method: string, path: string, body?: unknown, key: string | null = d.project.secretKey) => {
      const r = await d.request(method, path, body, { key });
      const schema = check(method, path, r.status, r.headers.get('content-type') ?? '', r.body);
      assert.is(schema, null);
      seen.add(`${method} ${r.status}`);
      return r;
    };
    const domain = await env.verifySender('acme.test');
    env.routeToSink('rcpt.test');
    const created = await call('POST', '/contacts', { email: 'ann@rcpt.test', data: { plan: 'pro' } });
    assert.is(created.status, 201);
    await call('POST', '/contacts', { email: 'ann@rcpt.test', data: { plan: 'max' } });
    await call('GET', `/contacts/${created.body.id}`);
    await call('PATCH', `/contacts/${created.body.id}`, { subscribed: true });
    await call('GET', '/contacts?limit=5');
    await call('POST', '/contacts/lookup', { emails: ['ann@rcpt.test', 'nobody@rcpt.test'] });
    await call('GET', '/contacts/fields');
    await call('GET', '/contacts/fields/data.plan/values');
    await call('GET', '/contacts/fields/data.plan/usage');
    const template = await call('POST', '/templates', { name: 'T', subject: 'Hi {{name}}', body: '<p>Hi</p>', from: 'hello@acme.test', type: 'TRANSACTIONAL' });
    await call('GET', `/templates/${template.body.id}`);
    await call('PATCH', `/templates/${template.body.id}`, { subject: 'Hello' });
    await call('GET', '/templates');
    await call('GET', `/templates/${template.body.id}/usage`);
    const copy = await call('POST', `/templates/${template.body.id}/duplicate`);
    await call('DELETE', `/templates/${copy.body.id}`);
    const sent = await call('POST', '/v1/send', { to: 'ann@rcpt.test', template: template.body.id });
    assert.is(sent.status, 200);
    await call('POST', '/v1/track', { email: 'ann@rcpt.test', event: 'signed-up' }, d.project.publicKey);
    await call('POST', '/events/track', { email: 'ann@rcpt.test', event: 'upgraded' });
    await call('GET', '/events?limit=5');
    await call('GET', '/events/stats');
    await call('GET', '/events/names');
    await call('GET', `/events/contact/${created.body.id}`);
    await call('GET', '/events/upgraded/usage');
    await call('DELETE', '/events/upgraded');
    await call('GET', `/domains/project/${d.project.id}`);
    await call('GET', `/domains/${domain.id}/verify`);
    await call('DELETE', '/contacts/fields/data.plan');
    await call('DELETE', `/contacts/${created.body.id}`);
    await call('GET', '/health', undefined, null);
    await call('GET', '/metrics', undefined, ADMIN);
    await call('POST', '/_test/clock', { advanceMs: 1 }, ADMIN);
    const other = d.createProject('rotated');
    await call('POST', `/users/@me/projects/${other.id}/regenerate-keys`, undefined, ADMIN);
    // Errors: the envelope and the flat form.
    assert.is((await call('POST', '/contacts', {})).status, 400);
    assert.is((await call('POST', '/contacts', { email: 5 })).status, 422);
    assert.is((await call('GET', `/contacts/${created.body.id}`)).status, 404);
    assert.is((await call('GET', '/contacts', undefined, 'sk_nope')).status, 401);
    for (const answer of ['POST 201', 'POST 200', 'GET 200', 'PATCH 200', 'DELETE 200', 'DELETE 204', 'POST 400', 'POST 422', 'GET 404', 'GET 401']) {
      assert.ok(seen.has(answer), answer);
    }
  } finally {
    await env.close();
  }
});

test.run();
