import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { findContactById } from '../../src/contacts/store.js';
import { evaluate } from '../../src/filters/evaluate.js';
import { planStored } from '../../src/filters/plan.js';
import { dependenciesOf } from '../../src/filters/predicate.js';
import { loadContactFacts } from '../../src/filters/sqlite.js';
import type { Filter, FilterCondition } from '../../src/filters/types.js';
import { loadSchemas } from '../../src/http/validate.js';
import { openStore, type Db } from '../../src/store/db.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, type BenchResult } from './load.js';

// Segments at scale: 1,000,000 contacts with 5 data fields and 5,000,000 events, written straight
// into a store the daemon made (its migrations, its indexes), then the daemon is started on it and
// measured through its API. `npm run bench segments`; BENCH_CONTACTS scales it down for a quick look.

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const EVENTS_PER_CONTACT = 5;
const DAY = 86_400_000;
const EVENT_NAMES = ['page_view', 'page_view', 'page_view', 'login', 'login', 'purchase', 'signup', 'email.sent', 'email.open', 'email.click'];
const COUNTRIES = ['DE', 'FR', 'US', 'UK', 'ES', 'IT', 'NL', 'SE', 'PL', 'AT'];

/**
 * The contacts and events by SQL alone (recursive series, random v4 ids). The store's indexes on
 * the two tables are dropped for the load and made again after it, from their own definitions.
 */
function seed(db: Db, projectId: string, now: number): void {
  const uuid = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('contacts', 'events') AND sql IS NOT NULL").all() as { name: string; sql: string }[];
  db.pragma('synchronous = OFF');
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  const countries = COUNTRIES.map((c, i) => `WHEN ${i} THEN '${c}'`).join(' ');
  const names = EVENT_NAMES.map((n, i) => `WHEN ${i} THEN '${n}'`).join(' ');
  db.transaction(() => {
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
       INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
       SELECT ${uuid}, ?, 'user' || x || '@bench.test', 'user' || x || '@bench.test', x % 5 <> 0,
         json_object('plan', CASE x % 3 WHEN 0 THEN 'free' WHEN 1 THEN 'pro' ELSE 'team' END, 'age', 18 + x % 60,
           'country', CASE x % 10 ${countries} END,
           'score', CASE WHEN x % 2 THEN x % 1000 ELSE CAST(x % 1000 AS TEXT) END,
           'signedUpAt', strftime('%Y-%m-%dT%H:%M:%fZ', (? - (x % 365) * ${DAY}) / 1000.0, 'unixepoch')),
         ? - x * 1000, ? - x * 500
       FROM n`,
    ).run(CONTACTS, projectId, now, now, now);
    for (let i = 0; i < EVENTS_PER_CONTACT; i++) {
      db.prepare(
        `INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at)
         SELECT ${uuid}, ?, id, NULL, CASE abs(random()) % ${EVENT_NAMES.length} ${names} END, '{}', ? - abs(random()) % ${90 * DAY} FROM contacts WHERE project_id = ?`,
      ).run(projectId, now, projectId);
    }
  })();
  for (const { sql } of indexes) db.exec(sql);
  db.exec('ANALYZE');
}

const f = (field: string, operator: Filter['operator'], value?: unknown, unit?: Filter['unit']): Filter => ({ field, operator, ...(value !== undefined ? { value } : {}), ...(unit ? { unit } : {}) });

/** Three groups ORed: an event operator and data comparisons. */
const THREE_GROUPS: FilterCondition = {
  logic: 'OR',
  groups: [
    { filters: [f('data.plan', 'equals', 'pro'), f('purchase', 'triggeredWithin', 30, 'days')] },
    { filters: [f('data.age', 'greaterThan', 60)] },
    { filters: [f('data.country', 'equals', 'DE'), f('subscribed', 'equals', true)] },
  ],
};
/** A tenth of the contacts: scores 0..99, as numbers and numeric strings. */
const TENTH: FilterCondition = { logic: 'AND', groups: [{ filters: [f('data.score', 'lessThan', 100)] }] };
/** Few matches, so a page scans far. */
const RARE: FilterCondition = { logic: 'AND', groups: [{ filters: [f('data.score', 'equals', 7), f('data.age', 'equals', 25), f('signup', 'triggered')] }] };

/** 50 tracked segments of varied conditions, as a project might have. */
function trackedConditions(): FilterCondition[] {
  return Array.from({ length: 50 }, (_, i): FilterCondition => {
    switch (i % 5) {
      case 0:
        return { logic: 'AND', groups: [{ filters: [f('data.age', 'greaterThan', 18 + i), f('data.plan', 'equals', ['free', 'pro', 'team'][i % 3])] }] };
      case 1:
        return { logic: 'AND', groups: [{ filters: [f(EVENT_NAMES[i % EVENT_NAMES.length]!, 'triggeredWithin', 1 + i, 'days')] }] };
      case 2:
        return { logic: 'OR', groups: [{ filters: [f('data.country', 'equals', COUNTRIES[i % 10])] }, { filters: [f('login', 'notTriggeredWithin', i, 'days')] }] };
      case 3:
        return { logic: 'AND', groups: [{ filters: [f('data.signedUpAt', 'within', 10 + i, 'days'), f('subscribed', 'equals', true)] }] };
      default:
        return { logic: 'AND', groups: [{ filters: [f('data.score', 'greaterThanOrEqual', i * 20)], conditions: { logic: 'OR', groups: [{ filters: [f('email', 'contains', `${i}@`)] }, { filters: [f('purchase', 'triggered')] }] } }] };
    }
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** Waits (bounded) until no job of these kinds is left in the store. */
async function drained(storeFile: string, kinds: string[], timeoutMs: number): Promise<void> {
  const reader = new Database(storeFile, { readonly: true });
  try {
    const end = Date.now() + timeoutMs;
    const left = reader.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE kind IN (SELECT value FROM json_each(?))`);
    while ((left.get(JSON.stringify(kinds)) as { n: number }).n > 0) {
      if (Date.now() > end) throw new Error(`jobs ${kinds.join(', ')} not done within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    reader.close();
  }
}

export async function run(): Promise<BenchResult> {
  const d: TestDaemon = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  const storeFile = join(d.dataDir, 'store', 'postmill.db');
  try {
    const key = d.project.secretKey;
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await call(d.url, method, path, key, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
      return r.body ? JSON.parse(r.body) : null;
    };

    await d.stop();
    const seeding = performance.now();
    const db = openStore(join(d.dataDir, 'store'));
    seed(db, d.project.id, Date.now());
    db.close();
    const seedSeconds = Math.round((performance.now() - seeding) / 1000);
    await d.restart();

    // Counting: POST refresh counts now (the same count the background job makes).
    const three = await api('POST', '/segments', { name: 'three groups', condition: THREE_GROUPS });
    const rare = await api('POST', '/segments', { name: 'rare', condition: RARE });
    const tenth = await api('POST', '/segments', { name: 'tenth', condition: TENTH, trackMembership: true });
    await drained(storeFile, ['segments.count'], 120_000);
    const counts: number[] = [];
    let matched = 0;
    for (let i = 0; i < 3; i++) {
      const { ms, value } = await timed(() => api('POST', `/segments/${three.id}/refresh`));
      counts.push(ms);
      matched = value.memberCount;
    }
    // The count runs on the reader thread: the API keeps answering meanwhile.
    const counting = api('POST', `/segments/${three.id}/refresh`);
    let settled = false;
    void counting.finally(() => (settled = true));
    const meanwhile: number[] = [];
    while (!settled) meanwhile.push((await timed(() => call(d.url, 'GET', '/health', null))).ms);
    await counting;
    const firstPages: number[] = [];
    for (let i = 0; i < 5; i++) firstPages.push((await timed(() => api('GET', `/segments/${three.id}/contacts`))).ms);
    const rarePages: number[] = [];
    for (let i = 0; i < 3; i++) rarePages.push((await timed(() => api('GET', `/segments/${rare.id}/contacts`))).ms);

    // Compute of a tracked segment of 100,000 members (the first: every member enters).
    const compute = await timed(() => api('POST', `/segments/${tenth.id}/compute`));
    const recompute = await timed(() => api('POST', `/segments/${tenth.id}/compute`));

    // One contact against 50 tracked segments: in process (facts and 50 evaluations) ...
    await api('PATCH', `/segments/${tenth.id}`, { trackMembership: false });
    const tracked = trackedConditions();
    for (const [i, condition] of tracked.entries()) await api('POST', '/segments', { name: `tracked ${i}`, condition, trackMembership: true });
    await drained(storeFile, ['segments.count'], 600_000);
    loadSchemas();
    const reader = openStore(join(d.dataDir, 'store'));
    const predicates = tracked.map((c) => planStored(c, { segments: () => null, path: 'condition' }));
    const names = new Set(predicates.flatMap((p) => [...dependenciesOf(p).eventNames]));
    const ids = reader.prepare('SELECT id FROM contacts WHERE project_id = ? ORDER BY id LIMIT 2000').pluck().all(d.project.id) as string[];
    const inProcess = performance.now();
    let members = 0;
    for (const id of ids) {
      const contact = findContactById(reader, d.project.id, id)!;
      const facts = loadContactFacts(reader, d.project.id, contact, names);
      for (const p of predicates) if (evaluate(p, facts, Date.now())) members++;
    }
    const perContactMs = (performance.now() - inProcess) / ids.length;
    reader.close();

    // ... and through the daemon: contact changes, each re-evaluated by a job that records entries.
    const throughDaemon = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < ids.length) {
          const i = next++;
          await api('PATCH', `/contacts/${ids[i]}`, { data: { touched: i } });
        }
      }),
    );
    await drained(storeFile, ['reactor.segments'], 300_000);
    const daemonMs = performance.now() - throughDaemon;

    return {
      name: 'segments',
      figures: {
        contacts: CONTACTS,
        events: CONTACTS * EVENTS_PER_CONTACT,
        'seed s (SQL, not the daemon)': seedSeconds,
        'count: 3 groups, event + data, median ms': r1(median(counts)),
        'count: contacts matched': matched,
        'GET /health during a count: requests, max ms': `${meanwhile.length}, ${r1(Math.max(...meanwhile))}`,
        'first contacts page, median ms': r1(median(firstPages)),
        'first page of a rare filter, median ms': r1(median(rarePages)),
        'compute of a tracked segment: ms': r1(compute.ms),
        'compute: result': JSON.stringify(compute.value),
        'compute again (no changes): ms': r1(recompute.ms),
        're-evaluation vs 50 tracked segments, in process: ms per contact': Math.round(perContactMs * 1000) / 1000,
        're-evaluation: memberships found in 2000 contacts': members,
        're-evaluation through the daemon (PATCH + job + entries): ms per contact': r1(daemonMs / ids.length),
      },
    };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
