import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bracketsBalance, tooDeepAt } from '../src/http/json-depth.js';
import type { TestDaemon } from './helpers/daemon.js';
import { GARBAGE_BODIES, ROUTES } from './helpers/routes.js';
import { eventsNamed, startMailEnv, type MailEnv } from './helpers/mail-env.js';

// Contact data nests at most 32 levels (the data object is level 1) on every route that takes it;
// any JSON body nests at most 64 levels. Too deep is 422 naming the field, and nothing is stored.

let env: MailEnv;
let d: TestDaemon;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  await env.verifySender('depth.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

/** `{key: {key: ... leaf}}` with `levels` objects in all (the outermost counts). */
function nested(levels: number, key = 'a', leaf: unknown = 'deep'): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { [key]: value };
  return value as Record<string, unknown>;
}
/** `[[...leaf]]` with `levels` arrays. */
function nestedArrays(levels: number): unknown[] {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value as unknown[];
}
/** A raw JSON text `{"data": {"a": ... }}` with the data nested `levels` deep, built as text (JSON.stringify would overflow). */
const rawDeepBody = (prefix: string, levels: number) => `${prefix}"data":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;

const path = (segments: number) => ['data', ...Array.from({ length: segments }, () => 'a')].join('.');

/** Every route that takes contact data, with the key it needs and a body carrying `data`. */
function routesWithData(email: string, contactId: string) {
  return [
    { method: 'POST', path: '/contacts', key: d.project.secretKey, body: (data: unknown) => ({ email, data }) },
    { method: 'PATCH', path: `/contacts/${contactId}`, key: d.project.secretKey, body: (data: unknown) => ({ data }) },
    { method: 'POST', path: '/v1/send', key: d.project.secretKey, body: (data: unknown) => ({ to: email, from: 'hi@depth.test', subject: 's', body: '<p>b</p>', data }) },
    { method: 'POST', path: '/v1/track', key: d.project.publicKey, body: (data: unknown) => ({ email, event: 'deep', data }) },
    { method: 'POST', path: '/events/track', key: d.project.secretKey, body: (data: unknown) => ({ email, event: 'deep', data }) },
  ];
}

test('the text scanner counts brackets outside strings only, and names the path of the first container too deep', () => {
  const text = (value: unknown) => Buffer.from(JSON.stringify(value));
  assert.is(tooDeepAt(text(nested(64)), 64), null);
  assert.is(tooDeepAt(text(nested(65)), 64), Array.from({ length: 64 }, () => 'a').join('.'));
  assert.is(tooDeepAt(text({ s: '[[[[{{{{"\\"[[[['.repeat(100) }), 2), null, 'brackets and escaped quotes inside strings do not count');
  assert.is(tooDeepAt(text({ list: [1, 2, { k: [[1]] }] }), 4), 'list.2.k.0');
  assert.is(tooDeepAt(text({ 'a"b': { 'c\\d': [[]] } }), 3), 'a"b.c\\d.0', 'keys are named as decoded');
  assert.is(tooDeepAt(Buffer.from('{"a": "unterminated [[[['), 1), null, 'malformed text is left to the parser');
  assert.is(tooDeepAt(Buffer.from(']]]}}}[[['), 2), '0.0', 'stray closers do not hide what follows');
});

test('contact data at 32 levels is stored and every fields route answers; 33 levels is 422 on every route, nothing stored', async () => {
  const ok = await d.request('POST', '/contacts', { email: 'deep-ok@rcpt.test', data: nested(32) });
  assert.is(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
  assert.is((await d.request('GET', '/contacts/fields')).status, 200);
  assert.is((await d.request('GET', '/contacts/fields/data.a/values')).status, 200);
  assert.is((await d.request('GET', '/contacts/fields/data.a/usage')).status, 200);

  const existing = await d.request('POST', '/contacts', { email: 'deep@rcpt.test', data: { keep: 1 } });
  for (const route of routesWithData('deep@rcpt.test', existing.body.id)) {
    for (const [data, field] of [
      [nested(33), path(32)],
      [{ list: nestedArrays(32) }, ['data', 'list', ...Array.from({ length: 31 }, () => '0')].join('.')],
      [{ once: { value: nested(33), persistent: false } }, `data.once.value.${path(30).slice(5)}`],
    ] as const) {
      const r = await d.request(route.method, route.path, route.body(data), { key: route.key });
      assert.is(r.status, 422, `${route.method} ${route.path}: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.is(r.body.error.code, 'VALIDATION_ERROR');
      assert.equal(r.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [[field, 'too_deep']], `${route.method} ${route.path}`);
    }
  }
  for (const route of routesWithData('deep-new@rcpt.test', existing.body.id).filter((r) => r.method === 'POST')) {
    assert.is((await d.request(route.method, route.path, route.body(nested(33)), { key: route.key })).status, 422);
  }
  assert.is((await d.request('GET', '/contacts?search=deep-new')).body.data.length, 0, 'no contact was created');
  const contact = await d.request('GET', `/contacts/${existing.body.id}`);
  assert.equal(contact.body.data, { keep: 1 }, 'nothing was stored on the existing contact');
  assert.is((await eventsNamed(d, 'deep')).length, 0, 'no event was recorded');
  const emails = await d.request('GET', '/contacts?search=deep%40rcpt.test');
  assert.is(emails.body.data.length, 1, 'no other contact was created');
  assert.is(env.sink.messages.length, 0, 'nothing was sent');
});

test('absurdly deep bodies (1,000 to 200,000 levels) are 422 naming the field on every route, never a 500', async () => {
  const email = 'absurd@rcpt.test';
  const created = await d.request('POST', '/contacts', { email });
  for (const levels of [1_000, 5_000, 100_000]) {
    for (const route of routesWithData(email, created.body.id)) {
      const prefix = route.path.endsWith('/track') ? `{"email":"${email}","event":"deep",` : `{"email":"${email}",`;
      const r = await d.request(route.method, route.path, undefined, { key: route.key, raw: rawDeepBody(prefix, levels) });
      assert.is(r.status, 422, `${route.method} ${route.path} at ${levels}: ${String(JSON.stringify(r.body)).slice(0, 200)}`);
      assert.is(r.body.error.errors[0].code, 'too_deep');
      assert.ok(r.body.error.errors[0].field.startsWith('data.a.a'), r.body.error.errors[0].field.slice(0, 50));
    }
  }
  // Every other route too, with deep arrays and objects as the whole body.
  const deepArray = '['.repeat(200_000) + ']'.repeat(200_000);
  const deepObject = '{"x":'.repeat(100_000) + '1' + '}'.repeat(100_000);
  for (const route of ROUTES) {
    if (route.method === 'GET' || route.path.includes('regenerate')) continue;
    const target = route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'projectId' ? d.project.id : 'x'));
    for (const raw of [deepArray, deepObject]) {
      const r = await d.request(route.method, target, undefined, { key: route.key === 'public' ? d.project.publicKey : d.project.secretKey, raw });
      assert.ok(r.status >= 400 && r.status < 500, `${route.method} ${target} answered ${r.status}`);
      assert.is(r.body.success, false);
    }
  }
  assert.is((await d.request('GET', '/contacts/fields')).status, 200, 'the fields of the project still answer');
  assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
});

test('deep text that is not JSON is 400 like any malformed body; deep JSON is 422 too_deep', async () => {
  assert.ok(bracketsBalance(Buffer.from('{"a":[1,{"b":"]}["}]}')));
  for (const broken of ['[[[', '[[]]]', '[{]}', '{"a":"]']) assert.not.ok(bracketsBalance(Buffer.from(broken)), broken);
  for (const raw of ['['.repeat(70), '{"a":'.repeat(70) + '1', '['.repeat(70) + '}'.repeat(70), '['.repeat(70) + '"' + ']'.repeat(70)]) {
    const r = await d.request('POST', '/contacts', undefined, { raw });
    assert.is(r.status, 400, raw.slice(0, 20));
    assert.is(r.body.error.code, 'BAD_REQUEST');
  }
  const deep = await d.request('POST', '/contacts', undefined, { raw: '['.repeat(70) + ']'.repeat(70) });
  assert.is(deep.status, 422);
  assert.is(deep.body.error.errors[0].code, 'too_deep');
});

test('the deep garbage bodies of the shared list stay 4xx', async () => {
  for (const raw of GARBAGE_BODIES) {
    const r = await d.request('POST', '/contacts', undefined, { raw });
    assert.ok(r.status >= 400 && r.status < 500, `${r.status} for ${String(raw).slice(0, 60)}`);
  }
});

test.run();
