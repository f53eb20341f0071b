// Heavy filters through the daemon. Reads whose cost grows with a project's data run on the reader
// threads, so while one project's filter takes seconds (pages, counts, a campaign's audience count
// and fan-out), /health and another project's requests answer at once. Every such read runs under
// a time budget: past it a request gets 422 QUERY_TIMEOUT, and a background job (count, fan-out)
// fails with that reason and is retried, while the daemon keeps serving.
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { answeredMeanwhile, assertAnsweredMeanwhile, type Probe } from './helpers/meanwhile.js';
import { seedStore } from './helpers/seed.js';

/** Enough contacts that each heavy filter below takes about a second here, several on a loaded machine. */
const CONTACTS = 6000;
const DAY = 86_400_000;
/** A random v4 UUID in SQL (contact ids are UUIDs: tracking tokens carry them). */
const UUID_SQL = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
/** The contacts the fan-out test sends to (the heavy filter also names them). */
const MARKED = 3;
/** A project whose contacts hold many data keys: listing its fields reads every key of every contact. */
const WIDE_CONTACTS = 6000;
const WIDE_KEYS = 150;

let env: MailEnv;
let d: TestDaemon;
let other: Keys;
/** A segment of the other project: its page is a read on the reader threads too, and must not wait for the heavy one. */
let otherSegment: string;
let wide: Keys;

/** Rewrites the daemon's `reads` settings and restarts it on the same store. */
async function reconfigure(reads: Record<string, number>): Promise<void> {
  const config = JSON.parse(readFileSync(d.configFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(d.configFile, JSON.stringify({ ...config, reads }));
  await d.stop();
  await d.restart();
}

test.before(async () => {
  env = await startMailEnv({ sinkDomains: ['heavy.test'], config: { reads: { threads: 2, requestBudgetMs: 120_000, jobBudgetMs: 120_000 } } });
  d = env.daemon;
  const projectId = d.project.id;
  const now = Date.now();
  // every contact has a hex note, a nested bio and old events (60 days ago) of 20 names
  await seedStore(d, (db) => {
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT ${UUID_SQL}, ?, x || '@heavy.test', x || '@heavy.test', 1,
         json_object('note', hex(randomblob(24)), 'profile', json_object('bio', hex(randomblob(24))), 'marked', CASE WHEN x < ? THEN 'yes' ELSE 'no' END), ? - x, ? - x FROM n`,
    ).run(CONTACTS, projectId, MARKED, now, now);
    db.prepare(
      `INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at)
       SELECT ${UUID_SQL}, project_id, id, NULL, 'ev' || (abs(random()) % 20), '{}', ? FROM contacts WHERE project_id = ?`,
    ).run(now - 60 * DAY, projectId);
  });
  wide = d.createProject('wide');
  await seedStore(d, (db) => {
    const keys = Array.from({ length: WIDE_KEYS }, (_, i) => `'k${i}', hex(randomblob(4))`).join(', ');
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT ${UUID_SQL}, ?, x || '@wide.test', x || '@wide.test', 1, json_object(${keys}), ?, ? FROM n`,
    ).run(WIDE_CONTACTS, wide.id, now, now);
  });
  await env.verifySender('heavy-sender.test');
  other = d.createProject('other');
  for (let i = 0; i < 30; i++) assert.is((await d.request('POST', '/contacts', { email: `o${i}@other.test`, data: { n: i } }, { key: other.secretKey })).status, 201);
  const segment = await d.request('POST', '/segments', { name: 'small', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.n', operator: 'lessThan', value: 10 }] }] } }, { key: other.secretKey });
  otherSegment = segment.body.id;
});
test.after(async () => env.close());

const contains = (field: string, value: string) => ({ field, operator: 'contains', value });
const anyOf = (filters: unknown[]) => ({ logic: 'OR', groups: filters.map((f) => ({ filters: [f] })) });
/** Ten levels of OR, each with 19 contains tests on a nested key and the next level: 190 filters. */
const nested = (depth: number): unknown => ({
  logic: 'OR',
  groups: [
    ...Array.from({ length: 19 }, (_, i) => ({ filters: [contains('data.profile.bio', `nest${depth}-${i}`)] })),
    ...(depth > 1 ? [{ filters: [], conditions: nested(depth - 1) }] : []),
  ],
});
const MARKED_FILTER = { field: 'data.marked', operator: 'equals', value: 'yes' };
/** 199 contains tests that match nobody, ORed with the few marked contacts: a walk reads every contact to find them. */
const HEAVY_MARKED = anyOf([...Array.from({ length: 199 }, (_, i) => contains('data.note', `zz${i}`)), MARKED_FILTER]);
const PATTERNS = ['%', '_', '.*', '[a-z]+', '\\d{3}', '^x$', '(a|b)', '*?', "' OR 1=1 --", '\\'];

/** Shapes of filters that match nobody and read every contact, some 200 tests a contact. */
const HEAVY: Record<string, unknown> = {
  'OR of 200 contains': anyOf(Array.from({ length: 200 }, (_, i) => contains('data.note', `zz${i}`))),
  'nested groups of data.profile.bio contains': nested(10),
  'OR of pattern-like texts (matched literally)': anyOf(Array.from({ length: 200 }, (_, i) => contains('data.note', `${PATTERNS[i % PATTERNS.length]}${i}`))),
  'OR of 200 event conditions': anyOf(Array.from({ length: 200 }, (_, i) => ({ field: `ev${i % 20}`, operator: 'triggeredWithin', value: 1 + i, unit: 'hours' }))),
};

/** /health, another project's list and its segment page (a read on the reader threads too, which must not wait for the heavy one). */
const probes = (): Probe[] => [
  { what: 'GET /health', ask: () => d.request('GET', '/health', undefined, { key: null }) },
  { what: 'GET /contacts of another project', ask: () => d.request('GET', '/contacts?limit=20', undefined, { key: other.secretKey }) },
  { what: "another project's segment page (a read on the reader threads)", ask: () => d.request('GET', `/segments/${otherSegment}/contacts`, undefined, { key: other.secretKey }) },
];

/**
 * Runs `heavy` while the probes ask in turn; checks each answered before it ended (it held neither
 * the event loop nor every reader thread) and answers its reply. How long they waited is a figure of
 * the fairness-filters bench.
 */
async function whileRunning<T>(what: string, heavy: Promise<T>): Promise<T> {
  const run = await answeredMeanwhile(heavy, probes());
  assertAnsweredMeanwhile(what, run.meanwhile);
  return run.value;
}

const api = (method: string, path: string, body?: unknown) => d.request(method, path, body);

test('a segment page (page and count) of each heavy shape runs off the event loop: /health and another project answer meanwhile', async () => {
  for (const [name, condition] of Object.entries(HEAVY)) {
    const segment = await api('POST', '/segments', { name, condition });
    assert.is(segment.status, 201, JSON.stringify(segment.body));
    const reply = await whileRunning(name, api('GET', `/segments/${segment.body.id}/contacts`));
    assert.is(reply.status, 200, JSON.stringify(reply.body));
    assert.equal([reply.body.total, reply.body.data], [0, []], name);
  }
});

test("the fields of a project whose contacts hold many keys are listed off the event loop", async () => {
  const reply = await whileRunning('fields listing', d.request('GET', '/contacts/fields', undefined, { key: wide.secretKey }));
  assert.is(reply.status, 200, JSON.stringify(reply.body));
  assert.is(reply.body.count, 4 + WIDE_KEYS, 'the standard fields and every key');
});

test('a segment count (refresh), the preview of a condition and a FILTERED campaign (audience count, then the fan-out walk) run off the event loop', async () => {
  const condition = HEAVY['OR of 200 contains'];
  const segment = (await api('POST', '/segments', { name: 'count me', condition })).body;
  const refresh = await whileRunning('refresh', api('POST', `/segments/${segment.id}/refresh`));
  assert.equal([refresh.status, refresh.body], [200, { memberCount: 0 }]);
  const preview = await whileRunning('preview of a condition not saved', api('POST', '/segments/preview', { condition }));
  assert.equal([preview.status, preview.body], [200, { count: 0, sample: [] }]);

  const campaign = (await api('POST', '/campaigns', { name: 'heavy', subject: 'Hi', body: '<p>hi</p>', from: 'news@heavy-sender.test', audienceType: 'FILTERED', audienceCondition: HEAVY_MARKED })).body.data;
  const send = await whileRunning('campaign audience count', api('POST', `/campaigns/${campaign.id}/send`, {}));
  assert.is(send.status, 200, JSON.stringify(send.body));
  assert.is(send.body.data.totalRecipients, MARKED);
  await whileRunning(
    'campaign fan-out',
    eventually(async () => ((await api('GET', `/campaigns/${campaign.id}`)).body.status === 'SENT' ? true : null), 60_000, 'the campaign SENT'),
  );
  const stats = (await api('GET', `/campaigns/${campaign.id}`)).body;
  assert.equal([stats.sentCount, stats.deliveredCount], [MARKED, MARKED]);
});

test('compute of a tracked heavy segment: the scan off the event loop, thousands of entries in short transactions', async () => {
  // 199 tests that match nobody and one that matches most contacts (a hex note holding an A)
  const condition = anyOf([...Array.from({ length: 199 }, (_, i) => contains('data.note', `zz${i}`)), contains('data.note', 'A')]);
  const segment = (await api('POST', '/segments', { name: 'most', condition, trackMembership: true })).body;
  const { memberCount } = (await api('POST', `/segments/${segment.id}/refresh`)).body;
  assert.ok(memberCount > CONTACTS / 2, `most contacts match (${memberCount})`);
  const computed = await whileRunning('compute', api('POST', `/segments/${segment.id}/compute`));
  assert.equal([computed.status, computed.body], [200, { added: memberCount, removed: 0, total: memberCount }]);
  assert.equal((await api('POST', `/segments/${segment.id}/compute`)).body, { added: 0, removed: 0, total: memberCount }, 'nothing left to record');
});

test('past its budget a read is stopped: 422 QUERY_TIMEOUT for requests; count and fan-out jobs fail with that reason and are retried; the daemon keeps serving', async () => {
  const condition = HEAVY['OR of 200 contains'];
  const tracked = (await api('POST', '/segments', { name: 'tracked heavy', condition, trackMembership: true })).body;
  const campaign = (await api('POST', '/campaigns', { name: 'now', subject: 'Hi', body: '<p>hi</p>', from: 'news@heavy-sender.test', audienceType: 'FILTERED', audienceCondition: condition })).body.data;
  // scheduled while reads may still run long: its audience is counted now, walked at the scheduled time
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  const scheduled = (await api('POST', '/campaigns', { name: 'later', subject: 'Hi', body: '<p>hi</p>', from: 'news@heavy-sender.test', audienceType: 'FILTERED', audienceCondition: HEAVY_MARKED })).body.data;
  assert.is((await api('POST', `/campaigns/${scheduled.id}/send`, { scheduledFor: inAnHour })).body.data.status, 'SCHEDULED');

  await reconfigure({ threads: 2, requestBudgetMs: 200, jobBudgetMs: 20 });
  const timedOut = async (what: string, reply: Promise<{ status: number; body: any }>) => {
    const r = await reply;
    assert.is(r.status, 422, `${what}: ${JSON.stringify(r.body)}`);
    assert.is(r.body.error.code, 'QUERY_TIMEOUT', what);
    assert.match(r.body.error.message, /stopped after 200 ms/, what);
    assert.equal(r.body.error.details, { budgetMs: 200 }, what);
    assert.type(r.body.error.suggestion, 'string');
  };
  await timedOut('segment page', api('GET', `/segments/${tracked.id}/contacts`));
  await timedOut('segment preview', api('POST', '/segments/preview', { condition }));
  await timedOut('segment refresh', api('POST', `/segments/${tracked.id}/refresh`));
  await timedOut('compute', api('POST', `/segments/${tracked.id}/compute`));
  await timedOut('FILTERED campaign audience count', api('POST', `/campaigns/${campaign.id}/send`, {}));
  await timedOut('fields listing', d.request('GET', '/contacts/fields', undefined, { key: wide.secretKey }));
  assert.is((await api('GET', `/campaigns/${campaign.id}`)).body.status, 'DRAFT', 'a send stopped at its count changes nothing');

  // background jobs, once due: the periodic count of the project's segments, and the scheduled fan-out
  await env.advance(2 * 3_600_000);
  const store = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
  try {
    const failure = (kind: string) => store.prepare('SELECT last_error FROM jobs WHERE kind = ? AND last_error IS NOT NULL').pluck().get(kind) as string | undefined;
    const jobs = () => store.prepare('SELECT kind, status, attempts, last_error FROM jobs').all();
    const fanout = await eventually((saw) => (saw(jobs()), failure('campaign.fanout')), 30_000, 'the fan-out failed with a reason');
    assert.match(fanout, /stopped after 20 ms/);
    const count = await eventually((saw) => (saw(jobs()), failure('segments.count')), 30_000, 'a count job failed with a reason');
    assert.match(count, /ran past 20 ms \(reads\.jobBudgetMs\)/);
  } finally {
    store.close();
  }
  assert.is((await api('GET', `/campaigns/${scheduled.id}`)).body.status, 'SENDING', 'the fan-out is retried, not finished');
  assert.is((await d.request('GET', '/health')).status, 200);
  assert.is((await d.request('GET', '/contacts?limit=5', undefined, { key: other.secretKey })).status, 200);
});

test.run();
