// POST /segments/preview through the real daemon: the count and sample of a condition nobody saved,
// equal to what a saved segment of it has; the engine's 422s with their field paths; the edited
// segment's own cycle refused as saving it would be; another project's contacts and segments never
// seen; nothing stored. Its request budget (422 QUERY_TIMEOUT) is tested with the other reads in
// test/heavy-filters.test.ts.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';

const ADMIN = 'preview-admin-token-0123456789';
let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, testHooks: true, adminToken: ADMIN } });
});
test.after(async () => d.dispose());

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
const caller =
  (keys: Keys): Call =>
  (method, path, body) =>
    d.request(method, path, body, { key: keys.secretKey });

async function ok(call: Call, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const where = (...filters: unknown[]) => ({ logic: 'AND', groups: [{ filters }] });

test('the count and sample equal what the segment has once saved, for data, event, membership and nested conditions', async () => {
  const p = d.createProject('preview-equal');
  const call = caller(p);
  for (let i = 0; i < 14; i++) {
    await ok(call, 'POST', '/contacts', { email: `c${i}@preview.test`, data: { plan: i % 2 === 0 ? 'pro' : 'free', seats: i } });
    // a second apart: "newest first" has one answer
    assert.is((await d.request('POST', '/_test/clock', { advanceMs: 1000 }, { key: ADMIN })).status, 200);
  }
  for (const i of [0, 1, 2, 3]) await ok(call, 'POST', '/events/track', { email: `c${i}@preview.test`, event: 'purchase' });
  const hand = await ok(call, 'POST', '/segments', { name: 'Hand', type: 'STATIC' });
  await ok(call, 'POST', `/segments/${hand.id}/members`, { emails: ['c5@preview.test', 'c6@preview.test'] });
  const conditions = {
    'a data field': where({ field: 'data.plan', operator: 'equals', value: 'pro' }),
    'a data field and an event': where({ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'purchase', operator: 'triggered' }),
    'no event in a window': where({ field: 'purchase', operator: 'notTriggeredWithin', value: 1, unit: 'hours' }),
    'groups ORed': { logic: 'OR', groups: [{ filters: [{ field: 'data.seats', operator: 'greaterThanOrEqual', value: 12 }] }, { filters: [{ field: 'segment', operator: 'memberOfSegment', value: hand.id }] }] },
    'a nested condition': { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'contains', value: 'preview' }], conditions: { logic: 'OR', groups: [{ filters: [{ field: 'data.seats', operator: 'lessThan', value: 2 }] }, { filters: [{ field: 'data.seats', operator: 'equals', value: '9' }] }] } }] },
    'an empty group (everyone)': { logic: 'AND', groups: [{ filters: [] }] },
    'nobody': where({ field: 'data.plan', operator: 'equals', value: 'enterprise' }),
  };
  for (const [name, condition] of Object.entries(conditions)) {
    const preview = await ok(call, 'POST', '/segments/preview', { condition });
    const saved = await ok(call, 'POST', '/segments', { name, condition });
    assert.is(preview.count, saved.memberCount, `${name}: the count`);
    assert.is(preview.count, (await ok(call, 'GET', `/segments/${saved.id}`)).memberCount, `${name}: GET /segments/{id}`);
    const page = await ok(call, 'GET', `/segments/${saved.id}/contacts?pageSize=10`);
    assert.equal(preview.sample, page.data, `${name}: the sample is the first page of the saved segment`);
    assert.ok(preview.sample.length <= 10, `${name}: at most 10 in the sample`);
  }
  const everyone = await ok(call, 'POST', '/segments/preview', { condition: conditions['an empty group (everyone)'] });
  assert.is(everyone.count, 14);
  assert.equal(
    everyone.sample.map((c: { email: string }) => c.email),
    Array.from({ length: 10 }, (_, i) => `c${13 - i}@preview.test`),
    'the ten newest, newest first',
  );
});

test('an invalid condition is 422 with the field paths of every problem; a body without one is 422; nothing is stored', async () => {
  const p = d.createProject('preview-invalid');
  const call = caller(p);
  const bad = await call('POST', '/segments/preview', {
    condition: where({ field: 'data.plan', operator: 'greaterThan', value: 'pro' }, { field: 'nickname', operator: 'equals', value: 'x' }, { field: 'purchase', operator: 'triggeredWithin', value: -1 }),
  });
  assert.is(bad.status, 422, JSON.stringify(bad.body));
  assert.is(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(
    bad.body.error.errors.map((e: { field: string }) => e.field),
    ['condition.groups.0.filters.0.value', 'condition.groups.0.filters.1.field', 'condition.groups.0.filters.2.value'],
  );
  for (const body of [{}, { condition: null }, { condition: { logic: 'AND', groups: [] } }, { condition: where(), extra: 1 }, { condition: where(), segmentId: 'nope' }, []]) {
    const r = await call('POST', '/segments/preview', body);
    assert.is(r.status, 422, `${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.is(r.body.error.code, 'VALIDATION_ERROR', JSON.stringify(body));
  }
  const missing = await call('POST', '/segments/preview', { condition: where({ field: 'segment', operator: 'memberOfSegment', value: randomUUID() }) });
  assert.equal([missing.status, missing.body.error.errors[0].field], [422, 'condition.groups.0.filters.0.value']);
  assert.equal((await ok(call, 'GET', '/segments')).data, [], 'no segment was made');
});

test('with segmentId, a condition that reaches that segment is refused as saving it would be; without, it is counted', async () => {
  const p = d.createProject('preview-cycle');
  const call = caller(p);
  await ok(call, 'POST', '/contacts', { email: 'a@cycle.test', data: { plan: 'pro' } });
  const a = await ok(call, 'POST', '/segments', { name: 'A', condition: where({ field: 'data.plan', operator: 'equals', value: 'pro' }) });
  const b = await ok(call, 'POST', '/segments', { name: 'B', condition: where({ field: 'segment', operator: 'memberOfSegment', value: a.id }) });
  for (const condition of [where({ field: 'segment', operator: 'memberOfSegment', value: a.id }), where({ field: 'segment', operator: 'notMemberOfSegment', value: b.id })]) {
    const refused = await call('POST', '/segments/preview', { condition, segmentId: a.id });
    const saving = await call('PATCH', `/segments/${a.id}`, { condition });
    assert.is(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.error.errors, saving.body.error.errors, 'the same problems as the save');
    assert.match(refused.body.error.errors[0].message, /contain themselves/);
    assert.is((await call('POST', '/segments/preview', { condition })).status, 200, 'another segment may reference it');
  }
  assert.is((await ok(call, 'POST', '/segments/preview', { condition: where({ field: 'segment', operator: 'memberOfSegment', value: a.id }) })).count, 1);
});

test("another project's contacts are never counted or sampled, and its segments are unknown", async () => {
  const mine = d.createProject('preview-mine');
  const theirs = d.createProject('preview-theirs');
  for (const [p, email] of [
    [mine, 'me@iso.test'],
    [theirs, 'them1@iso.test'],
    [theirs, 'them2@iso.test'],
  ] as const) {
    await ok(caller(p), 'POST', '/contacts', { email, data: { plan: 'pro' } });
  }
  const preview = await ok(caller(mine), 'POST', '/segments/preview', { condition: where({ field: 'data.plan', operator: 'equals', value: 'pro' }) });
  assert.equal([preview.count, preview.sample.map((c: { email: string }) => c.email)], [1, ['me@iso.test']]);
  const theirSegment = await ok(caller(theirs), 'POST', '/segments', { name: 'Theirs', condition: where() });
  const r = await caller(mine)('POST', '/segments/preview', { condition: where({ field: 'segment', operator: 'memberOfSegment', value: theirSegment.id }) });
  assert.equal([r.status, r.body.error.errors[0].message], [422, 'No segment with this id in the project']);
});

test.run();
