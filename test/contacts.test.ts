import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
test.after(async () => d.dispose());

test('POST /contacts creates (201) then upserts (200) by email, ignoring case', async () => {
  const created = await d.request('POST', '/contacts', { email: 'Ann@Example.test', data: { plan: 'pro', n: 1 } });
  assert.is(created.status, 201);
  assert.is(created.body.email, 'Ann@Example.test');
  assert.is(created.body.subscribed, true);
  assert.equal(created.body._meta, { isNew: true, isUpdate: false });
  assert.equal(created.body.data, { plan: 'pro', n: 1 });
  assert.ok(/^[0-9a-f-]{36}$/.test(created.body.id));
  assert.ok(!Number.isNaN(Date.parse(created.body.createdAt)));

  const updated = await d.request('POST', '/contacts', { email: 'ann@example.TEST', subscribed: false, data: { n: 2, plan: '' } });
  assert.is(updated.status, 200);
  assert.is(updated.body.id, created.body.id);
  assert.is(updated.body.subscribed, false);
  assert.equal(updated.body.data, { plan: 'pro', n: 2 }, 'empty string does not overwrite');
  assert.equal(updated.body._meta, { isNew: false, isUpdate: true });
});

test('data rules: null deletes, reserved keys dropped, objects and arrays stored, one-off not stored', async () => {
  const r = await d.request('POST', '/contacts', {
    email: 'rules@example.test',
    data: { keep: 'x', gone: 'y', id: 'nope', email: 'nope', unsubscribeUrl: 'x', list: [1, 2], obj: { a: 1 }, once: { value: 'v', persistent: false } },
  });
  assert.equal(r.body.data, { keep: 'x', gone: 'y', list: [1, 2], obj: { a: 1 } });
  const p = await d.request('PATCH', `/contacts/${r.body.id}`, { data: { gone: null, keep: '' } });
  assert.is(p.status, 200);
  assert.equal(p.body.data, { keep: 'x', list: [1, 2], obj: { a: 1 } });
});

test('PATCH flips of subscribed emit contact.unsubscribed / contact.subscribed (empty data); no flip, no event', async () => {
  const c = await d.request('POST', '/contacts', { email: 'flipper@example.test' });
  const events = async () =>
    ((await d.request('GET', `/events/contact/${c.body.id}`)).body.data as { name: string; data: unknown }[]).map((e) => [e.name, e.data]);
  await d.request('PATCH', `/contacts/${c.body.id}`, { subscribed: false });
  await d.request('PATCH', `/contacts/${c.body.id}`, { subscribed: false, data: { x: 1 } });
  await d.request('PATCH', `/contacts/${c.body.id}`, { subscribed: true });
  const seen = await events();
  assert.is(seen.length, 2);
  assert.ok(seen.some(([name, data]) => name === 'contact.unsubscribed' && JSON.stringify(data) === '{}'));
  assert.ok(seen.some(([name, data]) => name === 'contact.subscribed' && JSON.stringify(data) === '{}'));
});

test('POST /contacts without email is the flat 400; wrong types are 422 with field errors', async () => {
  const flat = await d.request('POST', '/contacts', { data: {} });
  assert.is(flat.status, 400);
  assert.equal(flat.body, { error: 'email is required' });
  const none = await d.request('POST', '/contacts');
  assert.is(none.status, 400);
  assert.ok(typeof none.body.error === 'string');
  const bad = await d.request('POST', '/contacts', { email: 'not-an-email', subscribed: 'yes' });
  assert.is(bad.status, 422);
  assert.is(bad.body.error.code, 'VALIDATION_ERROR');
  const fields = bad.body.error.errors.map((e: { field: string }) => e.field).sort();
  assert.equal(fields, ['email', 'subscribed']);
  const sub = bad.body.error.errors.find((e: { field: string }) => e.field === 'subscribed');
  assert.is(sub.code, 'invalid_type');
  assert.is(sub.received, 'yes');
});

test('GET /contacts/{id}, PATCH 409 on taken email, DELETE 204 then 404', async () => {
  const a = await d.request('POST', '/contacts', { email: 'a1@example.test' });
  const b = await d.request('POST', '/contacts', { email: 'b1@example.test' });
  assert.is((await d.request('GET', `/contacts/${a.body.id}`)).body.email, 'a1@example.test');
  const taken = await d.request('PATCH', `/contacts/${b.body.id}`, { email: 'A1@example.test' });
  assert.is(taken.status, 409);
  assert.is(taken.body.success, false);
  const renamed = await d.request('PATCH', `/contacts/${b.body.id}`, { email: 'b2@example.test' });
  assert.is(renamed.body.email, 'b2@example.test');
  const del = await d.request('DELETE', `/contacts/${a.body.id}`);
  assert.is(del.status, 204);
  assert.is(del.body, '');
  assert.is((await d.request('GET', `/contacts/${a.body.id}`)).status, 404);
  assert.is((await d.request('DELETE', `/contacts/${a.body.id}`)).status, 404);
  assert.is((await d.request('PATCH', '/contacts/not-a-uuid', {})).status, 404);
});

test('GET /contacts: cursor pages, total on the first page only, search, subscribed filter, sort and dir', async () => {
  const p = d.createProject('list');
  const key = { key: p.secretKey };
  for (let i = 0; i < 25; i++) {
    await d.request('POST', '/contacts', { email: `user${String(i).padStart(2, '0')}@list.test`, subscribed: i % 2 === 0 }, key);
  }
  const first = await d.request('GET', '/contacts?limit=10&sort=email&dir=asc', undefined, key);
  assert.is(first.body.data.length, 10);
  assert.is(first.body.total, 25);
  assert.is(first.body.hasMore, true);
  assert.is(first.body.data[0].email, 'user00@list.test');
  const second = await d.request('GET', `/contacts?limit=10&sort=email&dir=asc&cursor=${first.body.cursor}`, undefined, key);
  assert.is(second.body.total, 0);
  assert.is(second.body.data[0].email, 'user10@list.test');
  const third = await d.request('GET', `/contacts?limit=10&sort=email&dir=asc&cursor=${second.body.cursor}`, undefined, key);
  assert.is(third.body.data.length, 5);
  assert.is(third.body.hasMore, false);

  const all = await d.request('GET', '/contacts?limit=1000', undefined, key);
  assert.is(all.body.data.length, 25, 'limit is clamped to 100, which holds all 25');
  const clampedLow = await d.request('GET', '/contacts?limit=0', undefined, key);
  assert.is(clampedLow.body.data.length, 1);
  const byDefault = await d.request('GET', '/contacts?sort=bogus&dir=sideways', undefined, key);
  assert.is(byDefault.body.data.length, 20);
  assert.ok(byDefault.body.data[0].createdAt >= byDefault.body.data[19].createdAt, 'falls back to createdAt desc');

  const search = await d.request('GET', '/contacts?search=USER1', undefined, key);
  assert.is(search.body.total, 10);
  const subscribed = await d.request('GET', '/contacts?subscribed=false&limit=100', undefined, key);
  assert.is(subscribed.body.total, 12);
  assert.ok(subscribed.body.data.every((c: { subscribed: boolean }) => !c.subscribed));
  const huge = await d.request('GET', '/contacts?limit=99999999999999999999999', undefined, key);
  assert.is(huge.body.data.length, 20, 'a limit too large to be exact falls back to the default');
  const hugePage = await d.request('GET', '/templates?page=99999999999999999999&pageSize=1e400', undefined, key);
  assert.is(hugePage.status, 200, 'offset pages too large to be exact fall back, never a 500');
  const bad = await d.request('GET', '/contacts?cursor=garbage!!', undefined, key);
  assert.is(bad.status, 400);
});

test('POST /contacts/lookup answers found and notFound; more than 500 is 422', async () => {
  await d.request('POST', '/contacts', { email: 'look@example.test' });
  const r = await d.request('POST', '/contacts/lookup', { emails: ['LOOK@example.test', 'missing@example.test'] });
  assert.is(r.status, 200);
  assert.is(r.body.found.length, 1);
  assert.is(r.body.found[0].email, 'look@example.test');
  assert.equal(r.body.notFound, ['missing@example.test']);
  const many = await d.request('POST', '/contacts/lookup', { emails: Array.from({ length: 501 }, (_, i) => `x${i}@e.test`) });
  assert.is(many.status, 422);
  assert.is(many.body.error.errors[0].code, 'too_big');
});

test('fields: types and coverage, values, usage, delete', async () => {
  const p = d.createProject('fields');
  const key = { key: p.secretKey };
  await d.request('POST', '/contacts', { email: 'f1@f.test', data: { plan: 'pro', seats: 3, vip: true, since: '2024-01-02T00:00:00Z', tags: ['a'] } }, key);
  await d.request('POST', '/contacts', { email: 'f2@f.test', data: { plan: 'free', seats: 'many' } }, key);
  await d.request('POST', '/contacts', { email: 'f3@f.test', data: { plan: 'pro' } }, key);
  await d.request('POST', '/contacts', { email: 'f4@f.test' }, key);
  const fields = await d.request('GET', '/contacts/fields', undefined, key);
  const byName = Object.fromEntries(fields.body.fields.map((f: { field: string }) => [f.field, f]));
  assert.is(byName.email.type, 'string');
  assert.is(byName['data.plan'].type, 'string');
  assert.is(byName['data.plan'].coverage, 75);
  assert.is(byName['data.seats'].type, 'mixed');
  assert.is(byName['data.vip'].type, 'boolean');
  assert.is(byName['data.since'].type, 'date');
  assert.is(byName['data.tags'].type, 'array');
  assert.is(fields.body.count, fields.body.fields.length);

  const values = await d.request('GET', '/contacts/fields/plan/values', undefined, key);
  assert.equal(values.body, { field: 'data.plan', values: [{ value: 'pro', count: 2 }, { value: 'free', count: 1 }] });
  const usage = await d.request('GET', '/contacts/fields/data.plan/usage', undefined, key);
  assert.equal(usage.body, { field: 'data.plan', segments: [], campaigns: [], workflows: [] });
  const del = await d.request('DELETE', '/contacts/fields/data.plan', undefined, key);
  assert.equal(del.body, { field: 'data.plan', updated: 3 });
  const after = await d.request('GET', '/contacts/fields/plan/values', undefined, key);
  assert.equal(after.body.values, []);
  assert.is((await d.request('DELETE', '/contacts/fields/email', undefined, key)).status, 400);
});

test.run();
