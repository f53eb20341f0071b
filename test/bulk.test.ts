import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { eventsNamed } from './helpers/mail-env.js';
import { finished } from './helpers/upload.js';

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
test.after(async () => d.dispose());

async function contacts(prefix: string, n: number, subscribed: boolean, key = d.project.secretKey): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await d.request('POST', '/contacts', { email: `${prefix}${i}@bulk.test`, subscribed }, { key })).body.id);
  return ids;
}

async function bulk(operation: string, contactIds: string[], key = d.project.secretKey) {
  const r = await d.request('POST', `/contacts/bulk-${operation}`, { contactIds }, { key });
  assert.is(r.status, 202, JSON.stringify(r.body));
  assert.type(r.body.message, 'string');
  return finished(d, `/contacts/bulk/${r.body.jobId}`, key);
}

test('bulk-unsubscribe flips each subscribed contact once, with one event each; unknown ids are failures', async () => {
  const subscribed = await contacts('u', 5, true);
  const already = await contacts('already', 2, false);
  const unknown = randomUUID();
  const job = await bulk('unsubscribe', [...subscribed, ...already, unknown, subscribed[0]!]);
  assert.is(job.type, 'bulk-unsubscribe');
  assert.is(job.state, 'completed');
  assert.is(job.progress, 100);
  assert.equal(job.result, {
    operation: 'unsubscribe',
    requested: 8,
    changed: 5,
    unchanged: 2,
    failed: 1,
    errors: [{ contactId: unknown, message: 'Contact not found' }],
  });
  const events = (await eventsNamed(d, 'contact.unsubscribed')).filter((e) => subscribed.includes(e.contactId));
  assert.is(events.length, 5);
  for (const id of subscribed) assert.is((await d.request('GET', `/contacts/${id}`)).body.subscribed, false);
});

test('bulk-subscribe emits contact.subscribed for every flip', async () => {
  const ids = await contacts('s', 3, false);
  const job = await bulk('subscribe', ids);
  assert.is(job.result.changed, 3);
  const events = (await eventsNamed(d, 'contact.subscribed')).filter((e) => ids.includes(e.contactId));
  assert.is(events.length, 3);
});

test("bulk-delete removes the project's contacts; another project's ids are not found and stay", async () => {
  const other = d.createProject('other-bulk');
  const foreign = await contacts('foreign', 2, true, other.secretKey);
  const mine = await contacts('del', 3, true);
  const job = await bulk('delete', [...mine, ...foreign]);
  assert.is(job.result.changed, 3);
  assert.is(job.result.failed, 2);
  assert.equal(
    job.result.errors.map((e: { contactId: string }) => e.contactId).sort(),
    [...foreign].sort(),
  );
  for (const id of mine) assert.is((await d.request('GET', `/contacts/${id}`)).status, 404);
  for (const id of foreign) assert.is((await d.request('GET', `/contacts/${id}`, undefined, { key: other.secretKey })).status, 200);
});

test('1000 ids per call; more, none, or non-uuids are 422', async () => {
  const ids = Array.from({ length: 1000 }, () => randomUUID());
  const ok = await bulk('subscribe', ids);
  assert.is(ok.result.requested, 1000);
  assert.is(ok.result.failed, 1000);
  assert.is(ok.result.errors.length, 1000);
  for (const body of [{ contactIds: [...ids, randomUUID()] }, { contactIds: [] }, { contactIds: ['nope'] }, {}, { contactIds: 'x' }]) {
    const r = await d.request('POST', '/contacts/bulk-delete', body);
    assert.is(r.status, 422, JSON.stringify(body));
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.is(r.body.error.errors[0].field.split('.')[0], 'contactIds');
  }
});

test("another project's bulk job is 404; an import id is not a bulk job", async () => {
  const other = d.createProject('other-poll');
  const r = await d.request('POST', '/contacts/bulk-subscribe', { contactIds: [randomUUID()] });
  assert.is((await d.request('GET', `/contacts/bulk/${r.body.jobId}`, undefined, { key: other.secretKey })).status, 404);
  assert.is((await d.request('GET', `/contacts/import/${r.body.jobId}`)).status, 404);
  await finished(d, `/contacts/bulk/${r.body.jobId}`);
});

test('a bulk job accepted before kill -9 is done after the restart', async () => {
  const ids = await contacts('crash', 50, true);
  const r = await d.request('POST', '/contacts/bulk-unsubscribe', { contactIds: ids });
  assert.is(r.status, 202);
  await d.kill();
  await d.restart();
  const job = await finished(d, `/contacts/bulk/${r.body.jobId}`);
  assert.is(job.result.changed + job.result.unchanged, 50);
  assert.is(job.result.changed, 50, 'every flip counted once');
  const events = (await eventsNamed(d, 'contact.unsubscribed')).filter((e) => ids.includes(e.contactId));
  assert.is(events.length, 50);
});

test.run();
