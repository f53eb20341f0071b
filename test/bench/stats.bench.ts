import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore, type Db } from '../../src/store/db.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, type BenchResult } from './load.js';

const EVENTS = 1_000_000;
const DAYS = 90;
const TRIGGER_SAMPLE = 200_000;
const UUID_SQL = `lower(hex(randomblob(16)))`;

/**
 * `n` email events of the project over the last 90 days, in the proportions of real mail: sent,
 * delivered, first and repeated opens and clicks, a few permanent and transient bounces, complaints.
 */
function insertEmailEvents(db: Db, projectId: string, n: number, now: number): number {
  const started = performance.now();
  db.prepare(
    `WITH RECURSIVE k(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM k WHERE x < ? - 1)
     INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at)
     SELECT ${UUID_SQL}, ?, NULL, ${UUID_SQL},
       CASE WHEN x % 100 < 40 THEN 'email.sent' WHEN x % 100 < 75 THEN 'email.delivery' WHEN x % 100 < 90 THEN 'email.open'
            WHEN x % 100 < 95 THEN 'email.click' WHEN x % 100 < 98 THEN 'email.bounce' ELSE 'email.complaint' END,
       CASE WHEN x % 100 BETWEEN 75 AND 82 THEN '{"isFirstOpen":true}' WHEN x % 100 BETWEEN 83 AND 89 THEN '{"isFirstOpen":false}'
            WHEN x % 100 BETWEEN 90 AND 92 THEN '{"isFirstClick":true}' WHEN x % 100 = 97 THEN '{"transientBounce":true}' ELSE '{}' END,
       ? - (x * ?) / ?
     FROM k`,
  ).run(n, projectId, now, DAYS * 86_400_000, n);
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const r2 = (n: number) => Math.round(n * 100) / 100;

/** GET /stats/daily over 1,000,000 email events in 90 days, and what the daily rollup's triggers cost an email event's insert. */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.secretKey;
    const scratch = d.createProject('scratch');
    await d.stop();
    const db = openStore(join(d.dataDir, 'store'));
    const now = Date.now();
    const seedMs = db.transaction(() => insertEmailEvents(db, d.project.id, EVENTS, now))();
    // the rollup's triggers: the same inserts with and without them, into another project
    const withTriggers = db.transaction(() => insertEmailEvents(db, scratch.id, TRIGGER_SAMPLE, now))();
    const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'email_daily_%'").all() as { name: string; sql: string }[];
    const withoutTriggers = db.transaction(() => {
      for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
      const ms = insertEmailEvents(db, scratch.id, TRIGGER_SAMPLE, now);
      for (const t of triggers) db.exec(t.sql);
      return ms;
    })();
    db.close();
    await d.restart();

    const times = async (path: string, n = 100) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const r = await call(d.url, 'GET', path, key);
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
        ms.push(performance.now() - t);
      }
      return { first: ms[0]!, sorted: ms.sort((a, b) => a - b) };
    };
    const daily90 = await times('/stats/daily?days=90');
    const daily7 = await times('/stats/daily?days=7');
    const overview = await times('/stats/overview');
    const body = JSON.parse((await call(d.url, 'GET', '/stats/daily?days=90', key)).body) as { data: { sent: number }[] };
    const sent = body.data.reduce((sum, x) => sum + x.sent, 0);
    return {
      name: 'stats',
      figures: {
        'events seeded (90 days)': EVENTS,
        'sent counted by /stats/daily?days=90': sent,
        'seed ms (1M events, triggers on)': Math.round(seedMs),
        [`insert µs/event, rollup triggers on (${TRIGGER_SAMPLE} email events)`]: r2((withTriggers * 1000) / TRIGGER_SAMPLE),
        [`insert µs/event, rollup triggers off (${TRIGGER_SAMPLE} email events)`]: r2((withoutTriggers * 1000) / TRIGGER_SAMPLE),
        'GET /stats/daily?days=90 first ms after start (cold pages)': r2(daily90.first),
        'GET /stats/daily?days=90 p50 ms (HTTP round trip)': r2(percentile(daily90.sorted, 0.5)),
        'GET /stats/daily?days=90 p99 ms': r2(percentile(daily90.sorted, 0.99)),
        'GET /stats/daily?days=7 p50 ms': r2(percentile(daily7.sorted, 0.5)),
        'GET /stats/overview p50 ms': r2(percentile(overview.sorted, 0.5)),
        'GET /stats/overview max ms': r2(overview.sorted[overview.sorted.length - 1]!),
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
