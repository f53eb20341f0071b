// Segments through the API of the real daemon: shapes, both types, members, pages, compute with
// its entry and exit events, membership tracked as contacts change (across kill -9), counts, usage.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { insertContact } from '../src/contacts/store.js';
import { openStore } from '../src/store/db.js';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';
import { eventually } from './helpers/eventually.js';
import { advance, idle, TEST_HOOKS } from './helpers/test-hooks.js';
import { GARBAGE_BODIES } from './helpers/routes.js';

let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, ...TEST_HOOKS } });
});
test.after(async () => d.dispose());

const PRO = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] };

async function project(name: string): Promise<{ keys: Keys; call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }> }> {
  const keys = d.createProject(name);
  return { keys, call: (method, path, body) => d.request(method, path, body, { key: keys.secretKey }) };
}

async function entries(call: (m: string, p: string) => Promise<{ body: any }>, name: string): Promise<any[]> {
  return (await call('GET', `/events?name=${encodeURIComponent(name)}&limit=500`)).body.data;
}

test('create, read, list, patch and delete; the Segment shape', async () => {
  const { call } = await project('crud');
  const created = await call('POST', '/segments', { name: 'Pro users', description: 'paying', condition: PRO });
  assert.is(created.status, 201);
  assert.equal(Object.keys(created.body).sort(), ['condition', 'createdAt', 'description', 'id', 'memberCount', 'name', 'projectId', 'trackMembership', 'type', 'updatedAt']);
  assert.is(created.body.type, 'DYNAMIC');
  assert.is(created.body.trackMembership, false);
  assert.equal(created.body.condition, PRO);
  const id = created.body.id;
  assert.is((await call('GET', `/segments/${id}`)).body.name, 'Pro users');
  const stat = await call('POST', '/segments', { name: 'VIPs', type: 'STATIC', condition: { anything: true } });
  assert.is(stat.status, 201);
  assert.is(stat.body.condition, null, 'STATIC ignores a condition');
  const list = await call('GET', '/segments');
  assert.equal(
    list.body.data.map((s: { name: string }) => s.name),
    ['Pro users', 'VIPs'],
  );
  const patched = await call('PATCH', `/segments/${id}`, { name: 'Pro', description: null, trackMembership: true });
  assert.is(patched.status, 200);
  assert.is(patched.body.name, 'Pro');
  assert.is(patched.body.description, null);
  assert.is(patched.body.trackMembership, true);
  assert.is((await call('PATCH', `/segments/${stat.body.id}`, { condition: PRO })).status, 400, 'a static segment has no condition');
  assert.is((await call('PATCH', `/segments/${id}`, { type: 'STATIC' })).status, 422);
  assert.is((await call('DELETE', `/segments/${id}`)).status, 204);
  assert.is((await call('GET', `/segments/${id}`)).status, 404);
  assert.is((await call('GET', `/segments/${randomUUID()}`)).status, 404);
  assert.is((await call('GET', '/segments/not-a-uuid')).status, 404);
});

test('flat 400s for a missing name or condition; 422 with field paths for a bad condition', async () => {
  const { call } = await project('invalid');
  const noName = await call('POST', '/segments', { condition: PRO });
  assert.is(noName.status, 400);
  assert.equal(noName.body, { error: 'name is required' });
  for (const body of [{ name: 'x' }, { name: 'x', type: 'DYNAMIC', condition: null }]) {
    const r = await call('POST', '/segments', body);
    assert.is(r.status, 400);
    assert.type(r.body.error, 'string');
  }
  assert.is((await call('POST', '/segments', { name: 'x'.repeat(101), condition: PRO })).status, 422);
  assert.is((await call('POST', '/segments', { name: 'x', description: 'd'.repeat(501), condition: PRO })).status, 422);
  const bad = await call('POST', '/segments', {
    name: 'bad',
    condition: { logic: 'AND', groups: [{ filters: [{ field: 'plan', operator: 'equals', value: 'pro' }, { field: 'segment', operator: 'memberOfSegment', value: randomUUID() }] }] },
  });
  assert.is(bad.status, 422);
  assert.is(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(
    bad.body.error.errors.map((e: { field: string }) => e.field),
    ['condition.groups.0.filters.0.field', 'condition.groups.0.filters.1.value'],
  );
  assert.is((await call('GET', '/segments')).body.data.length, 0, 'nothing half-written');
});

test('a segment cannot contain itself, directly or through others', async () => {
  const { call } = await project('cycles');
  const a = (await call('POST', '/segments', { name: 'A', condition: PRO })).body;
  const member = (id: string) => ({ logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: id }] }] });
  const b = (await call('POST', '/segments', { name: 'B', condition: member(a.id) })).body;
  assert.is((await call('PATCH', `/segments/${a.id}`, { condition: member(a.id) })).status, 422);
  const loop = await call('PATCH', `/segments/${a.id}`, { condition: member(b.id) });
  assert.is(loop.status, 422);
  assert.match(loop.body.error.errors[0].message, /contain themselves/);
  const inUse = await call('DELETE', `/segments/${a.id}`);
  assert.is(inUse.status, 409, 'B names A');
  assert.equal(inUse.body.error.details.segments, [{ id: b.id, name: 'B' }]);
  assert.is((await call('DELETE', `/segments/${b.id}`)).status, 204);
  assert.is((await call('DELETE', `/segments/${a.id}`)).status, 204);
});

test('contacts page: live for a dynamic segment, pageSize at most 100, with totals', async () => {
  const { call } = await project('pages');
  for (let i = 0; i < 105; i++) await call('POST', '/contacts', { email: `p${i}@pages.test`, data: { plan: i % 5 === 0 ? 'free' : 'pro' } });
  const seg = (await call('POST', '/segments', { name: 'pro', condition: PRO })).body;
  const first = await call('GET', `/segments/${seg.id}/contacts?pageSize=500`);
  assert.is(first.status, 200);
  assert.equal({ ...first.body, data: undefined }, { data: undefined, page: 1, pageSize: 100, total: 84, totalPages: 1 });
  assert.is(first.body.data.length, 84);
  assert.equal(Object.keys(first.body.data[0]).sort(), ['createdAt', 'data', 'email', 'id', 'subscribed', 'updatedAt']);
  const second = await call('GET', `/segments/${seg.id}/contacts?page=2&pageSize=50`);
  assert.is(second.body.data.length, 34);
  assert.is(second.body.totalPages, 2);
  await call('POST', '/contacts', { email: 'p0@pages.test', data: { plan: 'pro' } });
  assert.is((await call('GET', `/segments/${seg.id}/contacts`)).body.total, 85, 'live');
});

test('static members: add (createMissing, subscribed), remove, and their pages', async () => {
  const { call } = await project('members');
  await call('POST', '/contacts', { email: 'known@members.test' });
  const seg = (await call('POST', '/segments', { name: 'Static', type: 'STATIC' })).body;
  const added = await call('POST', `/segments/${seg.id}/members`, { emails: ['KNOWN@members.test', 'new@members.test', 'known@members.test'] });
  assert.equal(added.body, { added: 1, created: 0, notFound: ['new@members.test'] });
  const created = await call('POST', `/segments/${seg.id}/members`, { emails: ['known@members.test', 'new@members.test'], createMissing: true, subscribed: false });
  assert.equal(created.body, { added: 1, created: 1, notFound: [] });
  const fresh = await call('POST', '/contacts/lookup', { emails: ['new@members.test'] });
  assert.is(fresh.body.found[0].subscribed, false);
  const page = await call('GET', `/segments/${seg.id}/contacts`);
  assert.is(page.body.total, 2);
  assert.equal(page.body.data.map((c: { email: string }) => c.email).sort(), ['known@members.test', 'new@members.test']);
  assert.equal((await call('DELETE', `/segments/${seg.id}/members`, { emails: ['new@members.test', 'nobody@members.test'] })).body, { removed: 1 });
  assert.is((await call('GET', `/segments/${seg.id}/contacts`)).body.total, 1);
  const dynamic = (await call('POST', '/segments', { name: 'dyn', condition: PRO })).body;
  assert.is((await call('POST', `/segments/${dynamic.id}/members`, { emails: ['known@members.test'] })).status, 400);
  assert.is((await call('POST', `/segments/${seg.id}/members`, { emails: ['not-an-email'] })).status, 422);
  assert.is((await call('POST', `/segments/${seg.id}/members`, { emails: Array.from({ length: 1001 }, (_, i) => `m${i}@x.test`) })).status, 422);
  assert.is((await call('POST', `/segments/${seg.id}/members`, { emails: [] })).status, 422);
  const member = { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: seg.id }] }] };
  const over = (await call('POST', '/segments', { name: 'over static', condition: member })).body;
  assert.equal((await call('GET', `/segments/${over.id}/contacts`)).body.data.map((c: { email: string }) => c.email), ['known@members.test']);
});

test('compute records membership and fires entry and exit events; refresh only counts', async () => {
  const { call } = await project('compute');
  for (const [email, plan] of [['a@c.test', 'pro'], ['b@c.test', 'pro'], ['c@c.test', 'free']]) await call('POST', '/contacts', { email, data: { plan } });
  const untracked = (await call('POST', '/segments', { name: 'untracked', condition: PRO })).body;
  assert.is((await call('POST', `/segments/${untracked.id}/compute`)).status, 400);
  assert.equal((await call('POST', `/segments/${untracked.id}/refresh`)).body, { memberCount: 2 });
  assert.is((await call('GET', `/segments/${untracked.id}`)).body.memberCount, 2);
  assert.is((await entries(call, 'segment.untracked.entry')).length, 0, 'refresh fires nothing');

  const seg = (await call('POST', '/segments', { name: 'Pro Users!', condition: PRO, trackMembership: true })).body;
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 2, removed: 0, total: 2 });
  const entered = await entries(call, 'segment.pro-users.entry');
  assert.is(entered.length, 2);
  assert.equal(entered[0].data, { segmentId: seg.id, segmentName: 'Pro Users!' });
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 0, removed: 0, total: 2 }, 'idempotent');
  assert.is((await call('GET', `/segments/${seg.id}`)).body.memberCount, 2);

  await call('PATCH', `/segments/${seg.id}`, { condition: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'equals', value: 'a@c.test' }] }] } });
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 0, removed: 1, total: 1 });
  const exited = await entries(call, 'segment.pro-users.exit');
  assert.is(exited.length, 1);
  const b = (await call('POST', '/contacts/lookup', { emails: ['b@c.test'] })).body.found[0];
  assert.is(exited[0].contactId, b.id);
});

test('tracked membership follows contact changes, events and subscription flips without compute', async () => {
  const { keys, call } = await project('tracking');
  const condition = {
    logic: 'OR',
    groups: [
      { filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'subscribed', operator: 'equals', value: true }] },
      { filters: [{ field: 'purchase', operator: 'triggered' }] },
    ],
  };
  const seg = (await call('POST', '/segments', { name: 'engaged', condition, trackMembership: true })).body;
  const a = (await call('POST', '/contacts', { email: 'a@t.test', data: { plan: 'free' } })).body;
  await call('PATCH', `/contacts/${a.id}`, { data: { plan: 'pro' } });
  await eventually(async () => (await entries(call, 'segment.engaged.entry')).length === 1, 8000, 'entry after a patch');
  await call('PATCH', `/contacts/${a.id}`, { subscribed: false });
  await eventually(async () => (await entries(call, 'segment.engaged.exit')).length === 1, 8000, 'exit after unsubscribing');
  const track = await d.request('POST', '/v1/track', { email: 'a@t.test', event: 'purchase' }, { key: keys.publicKey });
  assert.is(track.status, 200);
  await eventually(async () => (await entries(call, 'segment.engaged.entry')).length === 2, 8000, 'entry after a tracked event');
  await d.request('POST', '/v1/track', { email: 'new@t.test', event: 'purchase' }, { key: keys.publicKey });
  await eventually(async () => (await entries(call, 'segment.engaged.entry')).length === 3, 8000, 'a new contact enters');
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 0, removed: 0, total: 2 }, 'compute agrees with what tracking recorded');
  await call('DELETE', `/contacts/${a.id}`);
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 0, removed: 0, total: 1 }, 'a deleted contact leaves no row');
});

test('tracked static segments fire entry and exit events as members are added and removed', async () => {
  const { call } = await project('static-tracking');
  const seg = (await call('POST', '/segments', { name: 'Beta', type: 'STATIC', trackMembership: true })).body;
  await call('POST', `/segments/${seg.id}/members`, { emails: ['x@s.test', 'y@s.test'], createMissing: true });
  assert.is((await entries(call, 'segment.beta.entry')).length, 2);
  await call('DELETE', `/segments/${seg.id}/members`, { emails: ['x@s.test'] });
  assert.is((await entries(call, 'segment.beta.exit')).length, 1);
});

test('memberCount is kept by background jobs, never counted on read', async () => {
  const { call } = await project('counts');
  await call('POST', '/contacts', { email: 'one@n.test', data: { plan: 'pro' } });
  const seg = (await call('POST', '/segments', { name: 'n', condition: PRO })).body;
  await eventually(async () => (await call('GET', `/segments/${seg.id}`)).body.memberCount === 1, 8000, 'the count after create');
  await call('POST', '/contacts', { email: 'two@n.test', data: { plan: 'pro' } });
  // whatever the contact's write set off has run: the count is still the cached one
  await idle(d);
  assert.is((await call('GET', `/segments/${seg.id}`)).body.memberCount, 1, 'cached');
  await advance(d, 5 * 60_000 + 1000);
  await eventually(async () => (await call('GET', `/segments/${seg.id}`)).body.memberCount === 2, 8000, 'the count after contact changes');
});

test('field and event usage name the segments; a used field cannot be deleted', async () => {
  const { call } = await project('usage');
  const condition = { logic: 'AND', groups: [{ filters: [{ field: 'data.address.city', operator: 'exists' }, { field: 'signup', operator: 'triggered' }] }] };
  const seg = (await call('POST', '/segments', { name: 'Usage', condition })).body;
  const field = await call('GET', '/contacts/fields/address/usage');
  assert.equal(field.body.segments, [{ id: seg.id, name: 'Usage' }]);
  assert.equal((await call('GET', '/contacts/fields/plan/usage')).body.segments, []);
  assert.equal((await call('GET', '/events/signup/usage')).body.segments, [{ id: seg.id, name: 'Usage' }]);
  const refused = await call('DELETE', '/contacts/fields/address');
  assert.is(refused.status, 409);
  await call('DELETE', `/segments/${seg.id}`);
  assert.is((await call('DELETE', '/contacts/fields/address')).status, 200);
});

test("garbage at every segment route of real segments is a 4xx, never a 500; another project's segments stay out of reach", async () => {
  const { call, keys } = await project('garbage');
  await call('POST', '/contacts', { email: 'g@g.test' });
  const dynamic = (await call('POST', '/segments', { name: 'g', condition: PRO, trackMembership: true })).body;
  const stat = (await call('POST', '/segments', { name: 's', type: 'STATIC' })).body;
  // Written as text: JSON.stringify of this nesting would overflow this process's own stack.
  const deep = '{"logic":"OR","groups":[{"filters":[],"conditions":'.repeat(3000) + '{"logic":"AND","groups":[{"filters":[]}]}' + '}]}'.repeat(3000);
  const conditions = [{ logic: 'AND', groups: [{ filters: [{ field: 'data.' + 'k.'.repeat(5000) + 'x', operator: 'exists' }] }] }, { logic: 'AND', groups: [{ filters: [{ field: 'a', operator: 'within', value: 1e308 }] }] }];
  const bodies = [
    ...GARBAGE_BODIES,
    `{"name":"x","condition":${deep}}`,
    `{"condition":${deep}}`,
    ...conditions.flatMap((condition) => [JSON.stringify({ name: 'x', condition }), JSON.stringify({ condition })]),
  ];
  for (const id of [dynamic.id, stat.id]) {
    for (const [method, path] of [['POST', '/segments'], ['PATCH', `/segments/${id}`], ['POST', `/segments/${id}/members`], ['DELETE', `/segments/${id}/members`], ['POST', `/segments/${id}/compute`], ['POST', `/segments/${id}/refresh`]] as const) {
      for (const raw of bodies) {
        const r = await d.request(method, path, undefined, { key: keys.secretKey, raw });
        assert.ok(r.status < 500, `${method} ${path} answered ${r.status} to ${String(raw).slice(0, 60)}`);
      }
    }
  }
  assert.is((await call('GET', `/segments/${dynamic.id}`)).body.name, 'g');
  const other = await project('garbage-other');
  const foreign = await other.call('POST', '/segments', { name: 'f', condition: { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: stat.id }] }] } });
  assert.is(foreign.status, 422, "another project's segment id is unknown here");
  for (const path of [`/segments/${stat.id}`, `/segments/${stat.id}/contacts`]) assert.is((await other.call('GET', path)).status, 404);
  assert.is((await other.call('POST', `/segments/${stat.id}/members`, { emails: ['g@g.test'] })).status, 404);
});

test('after kill -9 amid tracking, every committed event gets its entry exactly once', async () => {
  const { keys, call } = await project('crash');
  const seg = (await call('POST', '/segments', { name: 'buyers', condition: { logic: 'AND', groups: [{ filters: [{ field: 'purchase', operator: 'triggered' }] }] }, trackMembership: true })).body;
  let answered = 0;
  let halfway!: () => void;
  const half = new Promise<void>((resolve) => (halfway = resolve));
  const sent = Array.from({ length: 400 }, (_, i) =>
    d.request('POST', '/v1/track', { email: `k${i}@crash.test`, event: 'purchase' }, { key: keys.publicKey }).then(
      (r) => {
        if (r.status === 200 && ++answered === 200) halfway();
      },
      () => undefined, // cut by the kill
    ),
  );
  await half;
  await d.kill();
  await Promise.all(sent);
  const store = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
  const pending = (store.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'reactor.segments'").get() as { n: number }).n;
  store.close();
  await d.restart();
  const buyers = new Set((await entries(call, 'purchase')).map((e) => e.contactId));
  assert.ok(buyers.size >= answered, 'every answered track is stored');
  await eventually(async () => (await entries(call, 'segment.buyers.entry')).length >= buyers.size, 20_000, `${buyers.size} entries (${pending} re-evaluations were pending at the kill)`);
  const all = await entries(call, 'segment.buyers.entry');
  assert.is(all.length, buyers.size, 'one entry per contact');
  assert.equal(new Set(all.map((e) => e.contactId)), buyers);
  assert.equal((await call('POST', `/segments/${seg.id}/compute`)).body, { added: 0, removed: 0, total: buyers.size });
});

test('a compute cut by kill -9 is completed by the next one, every entry once', async () => {
  const { call, keys } = await project('crash-compute');
  await d.stop();
  const db = openStore(join(d.dataDir, 'store'));
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < 8000; i++) {
      insertContact(db, { id: randomUUID(), projectId: keys.id, email: `s${i}@cc.test`, subscribed: true, data: { plan: 'pro' }, createdAt: now, updatedAt: now });
    }
  })();
  db.close();
  await d.restart();
  const seg = (await call('POST', '/segments', { name: 'all pro', condition: PRO, trackMembership: true })).body;
  const recorded = async () => (await d.request('GET', '/events/stats', undefined, { key: keys.secretKey })).body.data.find((s: { name: string }) => s.name === 'segment.all-pro.entry')?.count ?? 0;
  void call('POST', `/segments/${seg.id}/compute`).catch(() => undefined);
  // killed once its first batches are written, before its last
  await eventually(async (saw) => {
    const n = await recorded();
    saw({ entriesRecorded: n });
    return n > 0 && n < 8000;
  }, 20_000, 'the compute under way (some of its 8000 entries recorded, not all)', 5);
  await d.kill();
  await d.restart();
  const atRestart = await recorded();
  assert.ok(atRestart < 8000, `the kill cut the compute: ${atRestart} of 8000 entries recorded`);
  const result = (await call('POST', `/segments/${seg.id}/compute`)).body;
  assert.is(result.total, 8000);
  assert.is(result.removed, 0);
  const count = (await d.request('GET', '/events/stats', undefined, { key: keys.secretKey })).body.data.find((s: { name: string }) => s.name === 'segment.all-pro.entry');
  assert.is(count.count, 8000, 'every contact entered once, whichever compute recorded it');
});

test.run();
