// One set of contact data limits on every write path (the contact rules, src/contacts/data.ts): a
// contact holds at most 200 keys, a write names at most 200, a key is at most 200 characters. The
// API routes, CSV import (row errors with reasons), bulk jobs, the workflow UPDATE_CONTACT step
// (checked when saved, and at run time against the contact) and execution variables.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertContact } from '../src/contacts/store.js';
import type { TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { seedStore } from './helpers/seed.js';
import { finished, uploadCsv } from './helpers/upload.js';

let env: MailEnv;
let d: TestDaemon;

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  await env.verifySender('limits.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

/** `{k0: 0, k1: 1, ...}` with `n` keys named `${prefix}${i}`. */
const keys = (n: number, prefix = 'k') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
const long = (n: number) => 'x'.repeat(n);

/** Every route that writes contact data, for the contact `email` (whose id is `contactId`). */
function writePaths(email: string, contactId: string) {
  return [
    { name: 'POST /contacts', method: 'POST', path: '/contacts', key: d.project.secretKey, body: (data: unknown) => ({ email, data }) },
    { name: 'PATCH /contacts', method: 'PATCH', path: `/contacts/${contactId}`, key: d.project.secretKey, body: (data: unknown) => ({ data }) },
    { name: '/v1/send', method: 'POST', path: '/v1/send', key: d.project.secretKey, body: (data: unknown) => ({ to: email, from: 'hi@limits.test', subject: 's', body: '<p>b</p>', data }) },
    { name: '/v1/track', method: 'POST', path: '/v1/track', key: d.project.publicKey, body: (data: unknown) => ({ email, event: 'limits', data }) },
    { name: '/events/track', method: 'POST', path: '/events/track', key: d.project.secretKey, body: (data: unknown) => ({ email, event: 'limits', data }) },
  ];
}

async function contactByEmail(email: string) {
  const found = (await d.request('POST', '/contacts/lookup', { emails: [email] })).body.found[0];
  return found ? (await d.request('GET', `/contacts/${found.id}`)).body : null;
}

test('every API write path: a key over 200 characters and more than 200 keys in one write are 422 naming data; nothing is stored', async () => {
  const email = 'paths@rcpt.test';
  const created = await d.request('POST', '/contacts', { email, data: { kept: 1 } });
  assert.is(created.status, 201);
  for (const route of writePaths(email, created.body.id)) {
    for (const [what, data] of [
      ['a 201-character key', { [long(201)]: 1 }],
      ['a 300-character key beside good ones', { fine: 1, [long(300)]: 'v' }],
      ['201 keys', keys(201)],
    ] as const) {
      const r = await d.request(route.method, route.path, route.body(data), { key: route.key });
      assert.is(r.status, 422, `${route.name} with ${what}: ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.is(r.body.error.errors[0].field, 'data', route.name);
      assert.ok(JSON.stringify(r.body).length < 2000, `${route.name}: the answer does not echo the key whole`);
    }
  }
  assert.equal((await contactByEmail(email)).data, { kept: 1 }, 'nothing was stored by any refused write');
  const fits = await d.request('PATCH', `/contacts/${created.body.id}`, { data: { [long(200)]: 'two hundred is fine' } });
  assert.is(fits.status, 200, JSON.stringify(fits.body).slice(0, 300));
});

test('a contact holds at most 200 keys whichever path adds them; one already past the limit may shrink and change, not grow', async () => {
  const email = 'full@rcpt.test';
  const created = await d.request('POST', '/contacts', { email, data: keys(150, 'a') });
  assert.is(created.status, 201);
  for (const route of writePaths(email, created.body.id).filter((r) => r.name !== 'POST /contacts')) {
    const r = await d.request(route.method, route.path, route.body(keys(51, `${route.name.length}b`)), { key: route.key });
    assert.is(r.status, 422, `${route.name}: ${JSON.stringify(r.body).slice(0, 300)}`);
    assert.match(r.body.error.errors[0].message, 'at most 200 keys', route.name);
  }
  assert.is(Object.keys((await contactByEmail(email)).data).length, 150);
  assert.is((await d.request('PATCH', `/contacts/${created.body.id}`, { data: keys(50, 'c') })).status, 200, 'exactly 200');
  const overlong = long(300);
  const id = randomUUID();
  await seedStore(d, (db) => {
    const now = Date.now();
    insertContact(db, { id, projectId: d.project.id, email: 'before@rcpt.test', subscribed: true, data: { ...keys(250), [overlong]: 'stored before the limit' }, createdAt: now, updatedAt: now });
  });
  assert.is((await d.request('PATCH', `/contacts/${id}`, { data: { k0: 'changed' } })).status, 200, 'a change that adds no key');
  assert.is((await d.request('PATCH', `/contacts/${id}`, { data: { more: 1 } })).status, 422, 'no key more');
  const bulk = await d.request('POST', '/contacts/bulk-unsubscribe', { contactIds: [id] });
  assert.is((await finished(d, `/contacts/bulk/${bulk.body.jobId}`)).result.changed, 1, 'a bulk job on the contact');
  const removed = await d.request('PATCH', `/contacts/${id}`, { data: { [overlong]: null, k1: null } });
  assert.is(removed.status, 200, 'an over-long key stored before the limit can be deleted');
  assert.not.ok(overlong in removed.body.data);
  assert.is(Object.keys(removed.body.data).length, 249);
});

test('CSV import: rows over the limits fail as row errors with short reasons; the rows within them are imported', async () => {
  const huge = long(1_000_000);
  const overlong = await finished(d, `/contacts/import/${(await uploadCsv(d, `email,plan,${long(300)}\nx1@import.test,pro,v\nx2@import.test,basic,\n`)).body.jobId}`);
  assert.is(overlong.state, 'completed');
  assert.is(overlong.result.created, 1, 'the row that leaves the long column empty');
  assert.is(overlong.result.failed, 1);
  assert.equal(overlong.result.errors.map((e: { row: number }) => e.row), [2]);
  assert.match(overlong.result.errors[0].message, 'Data keys are at most 200 characters');
  const hugeKey = await finished(d, `/contacts/import/${(await uploadCsv(d, `email,${huge}\nh1@import.test,v\nh2@import.test,w\n`)).body.jobId}`);
  assert.is(hugeKey.result.failed, 2);
  assert.ok(hugeKey.result.errors.every((e: { message: string }) => e.message.length < 500), 'the reason does not carry the key');
  const wide = Array.from({ length: 999 }, (_, i) => `col${i}`);
  const full = Array.from({ length: 999 }, (_, i) => String(i)).join(',');
  const sparse = Array.from({ length: 999 }, (_, i) => (i < 150 ? String(i) : '')).join(',');
  const wideJob = await finished(d, `/contacts/import/${(await uploadCsv(d, `email,${wide.join(',')}\nw1@import.test,${full}\nw2@import.test,${sparse}\n`)).body.jobId}`);
  assert.is(wideJob.result.failed, 1, JSON.stringify(wideJob.result).slice(0, 500));
  assert.is(wideJob.result.errors[0].row, 2);
  assert.match(wideJob.result.errors[0].message, 'at most 200 keys');
  assert.is(wideJob.result.created, 1);
  assert.is(Object.keys((await contactByEmail('w2@import.test')).data).length, 150);
  const grow = await finished(d, `/contacts/import/${(await uploadCsv(d, `email,${wide.slice(150, 201).join(',')}\nw2@import.test,${Array(51).fill('1').join(',')}\n`)).body.jobId}`);
  assert.is(grow.result.failed, 1, 'a row that would take a contact past 200 keys');
  assert.match(grow.result.errors[0].message, 'would leave it with 201');
  assert.is((await contactByEmail('x2@import.test')).data.plan, 'basic');
  assert.is(await contactByEmail('x1@import.test'), null);
  const fields = (await d.request('GET', '/contacts/fields')).body.fields.map((f: { field: string }) => f.field);
  assert.ok(fields.every((f: string) => f.length <= 205), 'no stored key the fields routes could not name');
});

/** A workflow triggered by `event` whose one step is UPDATE_CONTACT with `config`; answers its id, or the 422 of the step. */
async function updateFlow(event: string, config: Record<string, unknown>): Promise<{ id: string; step: { status: number; body: any } }> {
  const w = (await d.request('POST', '/workflows', { name: event, eventName: event })).body;
  const step = await d.request('POST', `/workflows/${w.id}/steps`, { type: 'UPDATE_CONTACT', name: 'update', config });
  if (step.status === 201) {
    await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: step.body.id });
    assert.is((await d.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  }
  return { id: w.id, step };
}

test('workflows: UPDATE_CONTACT updates over the limits are refused when saved; a contact they would overfill fails the step with the reason; execution variables keep the limits', async () => {
  for (const [what, updates] of [
    ['a 201-character key', { [long(201)]: 1 }],
    ['201 keys', keys(201)],
  ] as const) {
    const { step } = await updateFlow(`refused-${what.length}`, { updates });
    assert.is(step.status, 422, what);
    assert.is(step.body.error.errors[0].field, 'config.updates', what);
  }
  const flow = await updateFlow('overfill', { updates: { one: 'more', two: 'more' } });
  assert.is(flow.step.status, 201);
  const email = 'overfill@rcpt.test';
  assert.is((await d.request('POST', '/contacts', { email, data: keys(199) })).status, 201);
  assert.is((await d.request('POST', '/events/track', { email, event: 'overfill' })).status, 200);
  const failed = await eventually(async () => {
    const list = (await d.request('GET', `/workflows/${flow.id}/executions`)).body.data;
    return list[0]?.status === 'FAILED' ? list[0] : null;
  }, 15_000, 'the execution to fail');
  const detail = (await d.request('GET', `/workflows/${flow.id}/executions/${failed.id}`)).body;
  assert.match(JSON.stringify(detail), 'at most 200 keys', JSON.stringify(detail).slice(0, 500));
  assert.is(Object.keys((await contactByEmail(email)).data).length, 199, 'nothing applied');
  const manual = await d.request('POST', `/workflows/${flow.id}/executions`, { email, context: keys(201) });
  assert.is(manual.status, 422);
  assert.is(manual.body.error.errors[0].field, 'context');
});

test.run();
