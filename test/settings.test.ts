// The console's Settings routes through the real daemon: GET /settings/keys shows the public key
// (kept since migration 071) and follows a rotation; GET and PATCH /settings/tracking share the
// CLI's code path (`postmill project tracking`) and the next transactional send follows them.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { sendAndReceive } from './helpers/delivered.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
let other: Keys;

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['rcpt.test'], senders: ['set.test'] });
  d = env.daemon;
  other = d.createProject('other');
});
test.after(async () => env.close());

test('GET /settings/keys: the public key of the project (never the secret one); a rotation shows the new one', async () => {
  const keys = await d.request('GET', '/settings/keys');
  assert.is(keys.status, 200);
  assert.equal(Object.keys(keys.body).sort(), ['createdAt', 'publicKey']);
  assert.is(keys.body.publicKey, d.project.publicKey);
  assert.is((await d.request('GET', '/settings/keys', undefined, { key: other.secretKey })).body.publicKey, other.publicKey, 'each project its own');

  const rotated = await d.request('POST', `/users/@me/projects/${other.id}/regenerate-keys`, undefined, { key: other.secretKey });
  assert.is(rotated.status, 200);
  const after = await d.request('GET', '/settings/keys', undefined, { key: rotated.body.secretKey });
  assert.is(after.body.publicKey, rotated.body.publicKey);
  assert.is.not(after.body.publicKey, other.publicKey);
  assert.is((await d.request('GET', '/settings/keys', undefined, { key: other.secretKey })).status, 401, 'the old secret key stopped');
  assert.is((await d.request('GET', '/settings/keys', undefined, { key: rotated.body.publicKey })).status, 401, 'a public key reads no settings');
  Object.assign(other, { publicKey: rotated.body.publicKey, secretKey: rotated.body.secretKey });
});

test('GET /settings/keys of keys made before public keys were kept: null, until a rotation', async () => {
  const old = d.createProject('made before 071');
  const db = new Database(join(d.dataDir, 'store', 'postmill.db'));
  try {
    db.prepare('UPDATE api_keys SET shown = NULL WHERE project_id = ?').run(old.id);
  } finally {
    db.close();
  }
  assert.equal((await d.request('GET', '/settings/keys', undefined, { key: old.secretKey })).body.publicKey, null);
  const rotated = await d.request('POST', `/users/@me/projects/${old.id}/regenerate-keys`, undefined, { key: old.secretKey });
  assert.is((await d.request('GET', '/settings/keys', undefined, { key: rotated.body.secretKey })).body.publicKey, rotated.body.publicKey);
});

const tracked = (html: string) => /\/t\/o\//.test(html) && new RegExp(`${d.url}/t/c/`).test(html);
const sendOne = async () =>
  (await sendAndReceive(env, { to: 'ann@rcpt.test', from: 'hi@set.test', subject: 'Receipt', body: '<p>Thanks</p><a href="https://example.com/order">Your order</a>' })).parsed.html as string;

test('tracking settings: off by default, PATCH round-trips, the next transactional send follows; the CLI and the API share one setting', async () => {
  assert.equal((await d.request('GET', '/settings/tracking')).body, { trackTransactional: false });
  assert.not.ok(tracked(await sendOne()), 'transactional mail untracked by default');

  const on = await d.request('PATCH', '/settings/tracking', { trackTransactional: true });
  assert.is(on.status, 200);
  assert.equal(on.body, { trackTransactional: true });
  assert.equal((await d.request('GET', '/settings/tracking')).body, { trackTransactional: true });
  assert.ok(tracked(await sendOne()), 'the next transactional send is tracked');
  assert.equal((await d.request('GET', '/settings/tracking', undefined, { key: other.secretKey })).body, { trackTransactional: false }, 'per project');

  d.cli('project', 'tracking', d.project.id, 'off');
  assert.equal((await d.request('GET', '/settings/tracking')).body, { trackTransactional: false }, 'the CLI writes what the API reads');
  assert.not.ok(tracked(await sendOne()));
  assert.equal((await d.request('PATCH', '/settings/tracking', { trackTransactional: true })).body, { trackTransactional: true });
  assert.ok(tracked(await sendOne()));
  assert.equal((await d.request('PATCH', '/settings/tracking', { trackTransactional: false })).body, { trackTransactional: false });
});

test('PATCH /settings/tracking refuses bad bodies with 422 and changes nothing', async () => {
  for (const bad of [{}, { trackTransactional: 'yes' }, { trackTransactional: 1 }, { trackTransactional: null }, { trackTransactional: true, extra: 1 }, [], 'on']) {
    const r = await d.request('PATCH', '/settings/tracking', bad);
    assert.ok([400, 422].includes(r.status), `${JSON.stringify(bad)} -> ${r.status} ${JSON.stringify(r.body)}`);
  }
  assert.is((await d.request('PATCH', '/settings/tracking')).status, 422, 'no body');
  assert.equal((await d.request('GET', '/settings/tracking')).body, { trackTransactional: false });
});

test.run();
