import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

// Every field GET /contacts/fields lists works through its own routes (values, usage, DELETE),
// whatever characters its key holds; any other name is a 4xx, never a 500.

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
test.after(async () => d.dispose());

/** Keys a contact can hold that a JSON path would misread: quotes, backslashes, NUL, dots, brackets, standard names. */
const ODD_KEYS = [
  'a\\b',
  'a"b',
  'a\u0000b',
  'a\u0000',
  'a.b',
  "a'b",
  'a\nb',
  '\t',
  '$',
  '$.x',
  'a[0]',
  'a/b',
  '%',
  '%41',
  '?x=1#y',
  ' ',
  '',
  'ü',
  '😀',
  'subscribed',
  'createdAt',
  'data.x',
  'x'.repeat(200),
];

const fieldRoute = (field: string, suffix = '') => `/contacts/fields/${encodeURIComponent(field)}${suffix}`;

test('every listed field answers its values, usage and DELETE, whatever its key holds', async () => {
  const p = d.createProject('odd-keys');
  const key = { key: p.secretKey };
  for (const [i, k] of ODD_KEYS.entries()) {
    const r = await d.request('POST', '/contacts', { email: `odd${i}@keys.test`, data: { [k]: { n: i, flag: true } } }, key);
    assert.is(r.status, 201, JSON.stringify(k));
  }
  await d.request('POST', '/contacts', { email: 'twice@keys.test', data: { 'a\\b': 'text', 'a"b': false } }, key);
  const listed = (await d.request('GET', '/contacts/fields', undefined, key)).body.fields.map((f: { field: string }) => f.field) as string[];
  for (const k of ODD_KEYS) assert.ok(listed.includes(`data.${k}`), `${JSON.stringify(k)} is listed`);

  for (const field of listed.filter((f) => f.startsWith('data.'))) {
    const values = await d.request('GET', fieldRoute(field, '/values'), undefined, key);
    assert.is(values.status, 200, `${JSON.stringify(field)}: ${JSON.stringify(values.body)}`);
    assert.is(values.body.field, field);
    assert.ok(values.body.values.length >= 1, `${JSON.stringify(field)} has values`);
    const usage = await d.request('GET', fieldRoute(field, '/usage'), undefined, key);
    assert.is(usage.status, 200, JSON.stringify(field));
    assert.equal(usage.body, { field, segments: [], campaigns: [], workflows: [] });
  }
  const twice = await d.request('GET', fieldRoute('data.a\\b', '/values'), undefined, key);
  assert.equal(twice.body.values.map((v: { value: unknown }) => v.value).sort(), [{ n: 0, flag: true }, 'text'].sort());
  const falsy = await d.request('GET', fieldRoute('data.a"b', '/values'), undefined, key);
  assert.equal(falsy.body.values.map((v: { value: unknown }) => v.value).sort(), [false, { n: 1, flag: true }].sort(), 'booleans stay booleans');

  for (const field of listed.filter((f) => f.startsWith('data.'))) {
    const del = await d.request('DELETE', fieldRoute(field), undefined, key);
    assert.is(del.status, 200, `${JSON.stringify(field)}: ${JSON.stringify(del.body)}`);
    assert.is(del.body.field, field);
    assert.ok(del.body.updated >= 1, `${JSON.stringify(field)} removed from its contacts`);
  }
  const after = (await d.request('GET', '/contacts/fields', undefined, key)).body.fields.map((f: { field: string }) => f.field);
  assert.equal(after, ['email', 'subscribed', 'createdAt', 'updatedAt'], 'every custom field is gone');
  const kept = await d.request('POST', '/contacts/lookup', { emails: ['odd0@keys.test'] }, key);
  assert.is(kept.body.found.length, 1, 'deleting a field removes the key, not the contact');
});

test('DELETE removes exactly the named key and leaves every other value as it was', async () => {
  const p = d.createProject('exact');
  const key = { key: p.secretKey };
  const data = { 'a\\b': 1, 'a\\\\b': 2, 'a.b': { nested: [1, { deep: null }] }, a: { b: 3 }, t: true, f: false, list: [1, 'x'] };
  const created = await d.request('POST', '/contacts', { email: 'exact@keys.test', data }, key);
  assert.is((await d.request('DELETE', fieldRoute('data.a\\b'), undefined, key)).body.updated, 1);
  assert.is((await d.request('DELETE', fieldRoute('data.a.b'), undefined, key)).body.updated, 1);
  const after = await d.request('GET', `/contacts/${created.body.id}`, undefined, key);
  assert.equal(after.body.data, { 'a\\\\b': 2, a: { b: 3 }, t: true, f: false, list: [1, 'x'] });
});

test('keys and text that are not well-formed Unicode (lone surrogates) are refused with 422, so nothing unreadable is listed', async () => {
  const p = d.createProject('surrogates');
  const key = { key: p.secretKey };
  for (const raw of ['{"email":"s@keys.test","data":{"\\ud800":1}}', '{"email":"s@keys.test","data":{"ok":"x\\udc00y"}}', '{"email":"s@keys.test","data":{"l":[["\\uDBFF"]]}}']) {
    const r = await d.request('POST', '/contacts', undefined, { ...key, raw });
    assert.is(r.status, 422, raw);
    assert.is(r.body.error.errors[0].code, 'invalid_string');
  }
  const paired = await d.request('POST', '/contacts', undefined, { ...key, raw: '{"email":"s@keys.test","data":{"\\ud83d\\ude00":"\\\\ud800"}}' });
  assert.is(paired.status, 201, 'a surrogate pair, and a backslash before "ud800", are fine');
  assert.equal(paired.body.data, { '😀': '\\ud800' });
  const fields = (await d.request('GET', '/contacts/fields', undefined, key)).body.fields.map((f: { field: string }) => f.field);
  assert.equal(fields.slice(4), ['data.😀']);
  assert.is((await d.request('GET', fieldRoute('data.😀', '/values'), undefined, key)).body.values.length, 1);
});

test('names that are no listed field are 4xx, never a 500', async () => {
  const bare = ['email', 'subscribed', 'createdAt', 'updatedAt'];
  for (const name of bare) {
    for (const suffix of ['/values', '/usage', '']) {
      const r = await d.request(suffix ? 'GET' : 'DELETE', fieldRoute(name, suffix));
      assert.is(r.status, 400, `${name}${suffix}`);
      assert.is(r.body.error.code, 'BAD_REQUEST');
    }
  }
  const refused = ['data.email', 'data.id', 'unsubscribeUrl', 'x'.repeat(201), `data.${'x'.repeat(201)}`, '😀'.repeat(201)];
  const rawPaths = ['%E0%A4%A', '%FF', '%', '%00', 'data.%ZZ', '..', '.', '%2e%2e', 'a%2Fb'];
  for (const suffix of ['/values', '/usage', '']) {
    for (const name of refused) {
      const r = await d.request(suffix ? 'GET' : 'DELETE', fieldRoute(name, suffix));
      assert.ok(r.status >= 400 && r.status < 500, `${name.slice(0, 20)}${suffix}: ${r.status}`);
      assert.is(r.body.success, false);
    }
    for (const raw of rawPaths) {
      const r = await d.request(suffix ? 'GET' : 'DELETE', `/contacts/fields/${raw}${suffix}`);
      assert.ok(r.status < 500, `${raw}${suffix}: ${r.status}`);
    }
  }
  const unknown = await d.request('GET', fieldRoute('data.never-stored', '/values'));
  assert.is(unknown.status, 200);
  assert.equal(unknown.body, { field: 'data.never-stored', values: [] });
});

test.run();
