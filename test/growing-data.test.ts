// Work whose size grows with a project's data never holds the event loop: writes over every
// contact, every event of a name or every expired idempotency key go a batch at a time with the
// event loop's turn between, and event counts come from the trigger-kept counters or a reader
// thread. /health and another project answer meanwhile (how long they wait is a benchmark's figure). (Template usage, offset lists and the metrics' job groups, now read on
// the reader threads, are checked in templates, campaigns, workflows and metrics tests.)
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { answeredMeanwhile, assertAnsweredMeanwhile } from './helpers/meanwhile.js';
import { seedStore } from './helpers/seed.js';

/** Rows of the heavy project: one statement over all of them held the event loop for seconds here. */
const ROWS = 300_000;
const UUID_SQL = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
const DAY = 86_400_000;

let env: MailEnv;
let other: Keys;
let seededAt: number;

test.before(async () => {
  env = await startMailEnv();
  const d = env.daemon;
  other = d.createProject('other');
  seededAt = Date.now();
  // every contact holds the key `gone` and has an event `noise`: the newest thousand today, the next thousand a day earlier, ...
  await seedStore(d, (db) => {
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT ${UUID_SQL}, ?, x || '@grow.test', x || '@grow.test', 1, json_object('gone', x, 'keep', 'k', 'note', hex(randomblob(100))), ? - x, ? - x FROM n`,
    ).run(ROWS, d.project.id, seededAt, seededAt);
    db.prepare(
      `INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at)
       SELECT ${UUID_SQL}, project_id, id, NULL, 'noise', '{}', ? - ((? - created_at) / 1000) * ${DAY} FROM contacts WHERE project_id = ?`,
    ).run(seededAt, seededAt, d.project.id);
  });
});
test.after(async () => env.close());

/** `read` of the daemon's store on a read-only connection of the test's own. */
function withStore<T>(read: (db: Database.Database) => T): T {
  const store = new Database(join(env.daemon.dataDir, 'store', 'postmill.db'), { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

/**
 * Runs `request` while /health and another project's /v1/track are asked in turn; answers its reply
 * once each was answered before it ended, the second asked after the first was answered: one
 * statement over every row holds the event loop from start to end and lets at most the first through.
 */
async function probed<T>(what: string, request: () => Promise<T>): Promise<T> {
  const run = await answeredMeanwhile(request(), [
    { what: 'GET /health', ask: () => env.daemon.request('GET', '/health', undefined, { key: null }) },
    { what: "another project's /v1/track", ask: () => env.daemon.request('POST', '/v1/track', { email: 'probe@other.test', event: 'probe' }, { key: other.publicKey }) },
  ]);
  assertAnsweredMeanwhile(what, run.meanwhile);
  return run.value;
}

test(`DELETE /contacts/fields/{field} over ${ROWS} contacts answers {field, updated} in batches; the API answers meanwhile`, async () => {
  const reply = await probed('field delete', () => env.daemon.request('DELETE', '/contacts/fields/data.gone'));
  assert.is(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body, { field: 'data.gone', updated: ROWS });
  // read from the store: GET /contacts/fields reads every contact too, and on a loaded machine can pass its budget
  const held = withStore((db) =>
    db
      .prepare(`SELECT SUM(json_type(data, '$.gone') IS NOT NULL) AS gone, SUM(json_type(data, '$.keep') IS NOT NULL) AS keep FROM contacts WHERE project_id = ?`)
      .get(env.daemon.project.id),
  );
  assert.equal(held, { gone: 0, keep: ROWS }, 'the key is gone from every contact, the others stay');
  // done: a second DELETE finds nothing left to change
  assert.equal((await env.daemon.request('DELETE', '/contacts/fields/data.gone')).body, { field: 'data.gone', updated: 0 });
});

test('event counts come from the counters or a reader thread: usage, names, stats over all time and over a window', async () => {
  await env.daemon.request('POST', '/events/track', { email: 'a@grow.test', event: 'rare' });
  assert.is((await env.daemon.request('GET', '/events/noise/usage')).body.count, ROWS);
  assert.is((await env.daemon.request('GET', '/events/rare/usage')).body.count, 1);
  assert.is((await env.daemon.request('GET', '/events/never/usage')).body.count, 0);
  const names = (await env.daemon.request('GET', '/events/names')).body.data;
  assert.ok(names.includes('noise') && names.includes('rare'), names.join(', '));
  const all = (await env.daemon.request('GET', '/events/stats')).body.data;
  assert.equal(all.slice(0, 2), [
    { name: 'noise', count: ROWS },
    { name: 'rare', count: 1 },
  ]);
  // the seeded events are a day apart per thousand: the window of the last 10 days holds the newest 10,000 contacts'
  const window = await env.daemon.request('GET', `/events/stats?from=${seededAt - 10 * DAY + 1}&to=${seededAt}`);
  assert.equal(
    window.body.data.find((r: { name: string }) => r.name === 'noise'),
    { name: 'noise', count: 10_000 },
  );
});

test(`DELETE /events/{name} of ${ROWS} events answers {deleted} in batches; the API answers meanwhile; the counters follow`, async () => {
  const reply = await probed('events delete', () => env.daemon.request('DELETE', '/events/noise'));
  assert.is(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body, { deleted: ROWS });
  assert.is((await env.daemon.request('GET', '/events/noise/usage')).body.count, 0);
  assert.not.ok((await env.daemon.request('GET', '/events/names')).body.data.includes('noise'));
});

test('the hourly sweep of expired idempotency keys goes in batches; the API answers meanwhile', async () => {
  const KEYS = 1_000_000;
  const expired = Date.now() - 48 * 3_600_000;
  await seedStore(env.daemon, (db) => {
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO idempotency_keys (project_id, key, request, status_code, created_at) SELECT ?, 'k' || x, '{}', 200, ? FROM n`,
    ).run(KEYS, env.daemon.project.id, expired);
  });
  const left = () => withStore((db) => (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n);
  assert.is(left(), KEYS);
  // the sweep is due an hour after the start
  await probed('idempotency sweep', async () => {
    await env.advance(2 * 3_600_000);
    await eventually(async () => left() === 0, 60_000, 'every expired key swept');
  });
});

test.run();
