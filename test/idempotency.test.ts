import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

const ADMIN = 'idempotency-admin-token-0123456789';
let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, adminToken: ADMIN, testHooks: true } });
});
test.after(async () => d.dispose());

const track = (key: string, email: string) =>
  d.request('POST', '/v1/track', { email, event: 'signed-up' }, { key: d.project.publicKey, headers: { 'idempotency-key': key } });

test('Idempotency-Key is scoped to the project and expires after 24 hours', async () => {
  assert.is((await track('order-1', 'a@idem.test')).status, 200);
  const reused = await track('order-1', 'a@idem.test');
  assert.is(reused.status, 409);
  assert.is(reused.body.error.details.originalStatusCode, 200);

  const other = d.createProject('other');
  const elsewhere = await d.request('POST', '/v1/track', { email: 'a@idem.test', event: 'signed-up' }, { key: other.publicKey, headers: { 'idempotency-key': 'order-1' } });
  assert.is(elsewhere.status, 200, 'another project may use the same key');

  assert.is((await d.request('POST', '/_test/clock', { advanceMs: 23 * 3600_000 }, { key: ADMIN })).status, 200);
  assert.is((await track('order-1', 'a@idem.test')).status, 409, 'still claimed after 23 hours');
  await d.request('POST', '/_test/clock', { advanceMs: 3600_000 + 1000 }, { key: ADMIN });
  assert.is((await track('order-1', 'a@idem.test')).status, 200, 'free again after 24 hours');
});

test('requests racing for one Idempotency-Key: exactly one is served, the others answer 409', async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, () => track('race-1', 'race@idem.test')));
  const statuses = answers.map((a) => a.status).sort();
  assert.equal(statuses.filter((s) => s === 200).length, 1, `one served: ${statuses.join(',')}`);
  assert.equal(statuses.filter((s) => s === 409).length, 19, `the rest refused: ${statuses.join(',')}`);
});

test('an invalid Idempotency-Key is 400', async () => {
  for (const key of ['', 'x'.repeat(256), 'tab\there', 'é']) {
    const r = await track(key, 'b@idem.test');
    assert.is(r.status, 400, JSON.stringify(key));
    assert.is(r.body.error.code, 'BAD_REQUEST');
  }
});

test.run();
