import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
let a: Keys;
let b: Keys;
const sk = (keys: Keys) => ({ key: keys.secretKey });

const track = (keys: Keys, email: string, event: string, data?: Record<string, unknown>) =>
  d.request('POST', '/v1/track', { email, event, data }, { key: keys.publicKey });

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
  a = d.createProject('events-a');
  b = d.createProject('events-b');
});
test.after(async () => d.dispose());

test('POST /events/track is the dashboard alias of /v1/track with the secret key', async () => {
  const r = await d.request('POST', '/events/track', { email: 'dash@events.test', event: 'imported', data: { source: 'csv' } }, sk(a));
  assert.is(r.status, 200);
  assert.is(r.body.success, true);
  assert.ok(r.body.data.contact && r.body.data.event && r.body.data.timestamp);
  const byPublic = await d.request('POST', '/events/track', { email: 'dash@events.test', event: 'imported' }, { key: a.publicKey });
  assert.is(byPublic.status, 401);
  assert.is(byPublic.body.error.code, 'INVALID_API_KEY');
  const reserved = await d.request('POST', '/events/track', { email: 'dash@events.test', event: 'email.sent' }, sk(a));
  assert.is(reserved.status, 422);
  assert.is(reserved.body.error.errors[0].code, 'reserved_event');
});

test('GET /events lists newest first with {id, name, contactId, emailId, data, createdAt}; name filter; limit 50 by default, 500 at most', async () => {
  for (let i = 0; i < 60; i++) await track(a, `bulk${i % 3}@events.test`, i % 2 ? 'odd' : 'even', { i });
  const all = await d.request('GET', '/events', undefined, sk(a));
  assert.is(all.status, 200);
  assert.is(all.body.data.length, 50);
  const first = all.body.data[0];
  assert.equal(Object.keys(first).sort(), ['contactId', 'createdAt', 'data', 'emailId', 'id', 'name']);
  assert.equal(first.data, { i: 59 }, 'newest first');
  assert.equal(all.body.data[1].data, { i: 58 });

  const odd = await d.request('GET', '/events?name=odd&limit=1000', undefined, sk(a));
  assert.is(odd.body.data.length, 30);
  assert.ok(odd.body.data.every((e: { name: string }) => e.name === 'odd'));
  assert.is((await d.request('GET', '/events?limit=2', undefined, sk(a))).body.data.length, 2);
  assert.is((await d.request('GET', '/events?limit=0', undefined, sk(a))).body.data.length, 1, 'clamped to 1');
  assert.is((await d.request('GET', '/events?limit=abc', undefined, sk(a))).body.data.length, 50, 'unreadable means the default');
  const many = await d.request('GET', '/events?limit=100000', undefined, sk(a));
  assert.ok(many.body.data.length > 50 && many.body.data.length <= 500);
});

test('GET /events/stats counts per name, bounded by from and to; a bad date is 400', async () => {
  const p = d.createProject('stats');
  await track(p, 's@events.test', 'alpha');
  await track(p, 's@events.test', 'alpha');
  await track(p, 's@events.test', 'beta');
  const stats = await d.request('GET', '/events/stats', undefined, sk(p));
  assert.is(stats.status, 200);
  assert.equal(stats.body.data, [
    { name: 'alpha', count: 2 },
    { name: 'beta', count: 1 },
  ]);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  const past = new Date(Date.now() - 3_600_000).toISOString();
  assert.equal((await d.request('GET', `/events/stats?from=${future}`, undefined, sk(p))).body.data, []);
  assert.equal((await d.request('GET', `/events/stats?to=${past}`, undefined, sk(p))).body.data, []);
  assert.is((await d.request('GET', `/events/stats?from=${past}&to=${future}`, undefined, sk(p))).body.data.length, 2);
  const bad = await d.request('GET', '/events/stats?from=yesterday-ish', undefined, sk(p));
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'BAD_REQUEST');
});

test('GET /events/contact/{contactId}: the events of one contact, 404 for an unknown or foreign contact', async () => {
  const t1 = await track(a, 'one@events.test', 'opened-app');
  await track(a, 'one@events.test', 'closed-app');
  await d.request('PATCH', `/contacts/${t1.body.data.contact}`, { subscribed: false }, sk(a));
  const r = await d.request('GET', `/events/contact/${t1.body.data.contact}`, undefined, sk(a));
  assert.is(r.status, 200);
  assert.equal(
    r.body.data.map((e: { name: string }) => e.name),
    ['contact.unsubscribed', 'closed-app', 'opened-app'],
  );
  assert.ok(r.body.data.every((e: { contactId: string }) => e.contactId === t1.body.data.contact));
  assert.is((await d.request('GET', `/events/contact/${t1.body.data.contact}`, undefined, sk(b))).status, 404, "another project's contact");
  assert.is((await d.request('GET', '/events/contact/00000000-0000-4000-8000-000000000000', undefined, sk(a))).status, 404);
  assert.is((await d.request('GET', '/events/contact/not-a-uuid', undefined, sk(a))).status, 404);
});

test('GET /events/names lists distinct names, internal ones included', async () => {
  const p = d.createProject('names');
  await track(p, 'n@events.test', 'zeta');
  await track(p, 'n@events.test', 'alpha');
  await track(p, 'n@events.test', 'alpha');
  await track(p, 'n@events.test', 'mid', {});
  await d.request('POST', '/v1/track', { email: 'n@events.test', event: 'mid', subscribed: false }, { key: p.publicKey });
  const r = await d.request('GET', '/events/names', undefined, sk(p));
  assert.equal(r.body, { data: ['alpha', 'contact.unsubscribed', 'mid', 'zeta'] });
});

test('GET /events/{eventName}/usage answers {segments, workflows, campaigns, count}', async () => {
  const p = d.createProject('usage');
  await track(p, 'u@events.test', 'trial started');
  await track(p, 'v@events.test', 'trial started');
  const r = await d.request('GET', `/events/${encodeURIComponent('trial started')}/usage`, undefined, sk(p));
  assert.is(r.status, 200);
  assert.equal(r.body, { segments: [], workflows: [], campaigns: [], count: 2 });
  assert.equal((await d.request('GET', '/events/never-seen/usage', undefined, sk(p))).body.count, 0);
});

test('DELETE /events/{eventName} deletes that name in this project only; reserved names are 400', async () => {
  await track(a, 'del@events.test', 'to-delete');
  await track(a, 'del@events.test', 'to-delete');
  await track(b, 'del@events.test', 'to-delete');
  const r = await d.request('DELETE', '/events/to-delete', undefined, sk(a));
  assert.is(r.status, 200);
  assert.equal(r.body, { deleted: 2 });
  assert.not.ok((await d.request('GET', '/events/names', undefined, sk(a))).body.data.includes('to-delete'));
  assert.equal((await d.request('GET', '/events/names', undefined, sk(b))).body.data, ['to-delete'], "the other project's events stay");
  assert.equal((await d.request('DELETE', '/events/to-delete', undefined, sk(a))).body, { deleted: 0 });
  for (const name of ['email.sent', 'contact.unsubscribed', 'segment.vip.entry']) {
    const reserved = await d.request('DELETE', `/events/${name}`, undefined, sk(a));
    assert.is(reserved.status, 400, name);
    assert.is(reserved.body.error.code, 'BAD_REQUEST');
  }
});

test("one project's key never sees another project's events", async () => {
  const p = d.createProject('private');
  const q = d.createProject('other');
  await track(p, 'secret@events.test', 'private-event', { secret: 'p-only' });
  for (const path of ['/events', '/events/names', '/events/stats', '/events/private-event/usage']) {
    const r = await d.request('GET', path, undefined, sk(q));
    assert.is(r.status, 200, path);
    const text = JSON.stringify(r.body);
    assert.not.ok(text.includes('private-event') && !path.includes('usage'), path);
    assert.not.ok(text.includes('p-only'), path);
  }
  assert.is((await d.request('GET', '/events/private-event/usage', undefined, sk(q))).body.count, 0);
  assert.is((await d.request('GET', '/events', undefined, { key: q.publicKey })).status, 401, 'the public key reads nothing');
});

test.run();
