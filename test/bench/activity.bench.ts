import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const EVENTS = 5_000_000;
const CONTACTS = 20_000;
const CHUNK = 100_000;
const SAMPLE_MS = 3000;
/** Names in the proportions a sending project sees them; `email.complaint` is the rare one. */
const NAMES = ['email.sent', 'email.delivery', 'email.open', 'email.open', 'email.click', 'page-view', 'page-view', 'signed-up', 'contact.unsubscribed'];

const TRACK_MS = 3000;
/** A-B, B-A, A-B, ...: neither side always runs first (the store and the WAL change as they go). */
const ORDERS = [
  [true, false],
  [false, true],
  [true, false],
  [false, true],
];

/**
 * What the triggers keeping the stats counters cost a write: /v1/track (20 clients) with them and
 * without them (dropped and made again through a second connection), alternating.
 */
async function countersCost(d: TestDaemon): Promise<Record<string, string | number>> {
  const db = openStore(join(d.dataDir, 'store'));
  const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'event_counts_%'").all() as { name: string; sql: string }[];
  let present = true;
  const keepCounters = (wanted: boolean) => {
    if (wanted !== present) for (const t of triggers) db.exec(wanted ? t.sql : `DROP TRIGGER ${t.name}`);
    present = wanted;
  };
  const track = () =>
    load(20, TRACK_MS, async (i) => (await call(d.url, 'POST', '/v1/track', d.project.publicKey, { email: `t${i % 5000}@counters.example`, event: 'page-view', data: { i } })).status === 200);
  const runs = new Map<boolean, { perSecond: number; p99Ms: number }[]>([
    [true, []],
    [false, []],
  ]);
  try {
    for (const order of ORDERS) {
      for (const withCounters of order) {
        keepCounters(withCounters);
        runs.get(withCounters)!.push(await track());
      }
    }
  } finally {
    keepCounters(true);
    db.close();
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const summary = (withCounters: boolean) => {
    const r = runs.get(withCounters)!;
    return { perSecond: median(r.map((x) => x.perSecond)), p99: median(r.map((x) => x.p99Ms)), all: r.map((x) => x.perSecond).join(', ') };
  };
  const on = summary(true);
  const off = summary(false);
  return {
    'track/s with the counters (median)': `${on.perSecond} (p99 ${on.p99} ms; runs ${on.all})`,
    'track/s without them (median)': `${off.perSecond} (p99 ${off.p99} ms; runs ${off.all})`,
    'with / without': Math.round((on.perSecond / off.perSecond) * 100) / 100,
  };
}

/** GET /activity over 5,000,000 events of one project: first pages, filters, a later page, the stats. */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    await d.stop();
    const t0 = performance.now();
    const db = openStore(join(d.dataDir, 'store'));
    const projectId = d.project.id;
    const contactIds = Array.from({ length: CONTACTS }, () => randomUUID());
    const start = Date.now() - 90 * 24 * 3600_000;
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)');
      contactIds.forEach((id, i) => insert.run(id, projectId, `c${i}@activity.example`, `c${i}@activity.example`, '{}', start, start));
    })();
    const insert = db.prepare('INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (let done = 0; done < EVENTS; done += CHUNK) {
      db.transaction(() => {
        for (let i = done; i < done + CHUNK; i++) {
          const name = i % 100_000 === 7 ? 'email.complaint' : NAMES[i % NAMES.length]!;
          const email = name.startsWith('email.') ? randomUUID() : null;
          const data = name === 'email.open' ? `{"isFirstOpen":${i % 4 === 2},"opens":1}` : '{"plan":"pro"}';
          // about 0.5 ms apart, several events in some milliseconds
          insert.run(randomUUID(), projectId, contactIds[i % CONTACTS], email, name, data, start + Math.floor(i / 2));
        }
      })();
    }
    const stored = (db.prepare('SELECT COUNT(*) AS n FROM events WHERE project_id = ?').get(projectId) as { n: number }).n;
    db.close();
    const buildSeconds = Math.round((performance.now() - t0) / 100) / 10;
    await d.restart();

    const key = d.project.secretKey;
    const timed = async (path: string) => {
      const first = performance.now();
      const r = await call(d.url, 'GET', path, key);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`);
      const firstMs = Math.round((performance.now() - first) * 100) / 100;
      const result = await load(1, SAMPLE_MS, async () => (await call(d.url, 'GET', path, key)).status === 200);
      return `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (first request ${firstMs} ms, ${result.requests} requests)`;
    };
    const page = JSON.parse((await call(d.url, 'GET', '/activity?limit=20', key)).body) as { cursor: string; data: unknown[] };
    let deep = page.cursor;
    for (let i = 0; i < 50; i++) deep = (JSON.parse((await call(d.url, 'GET', `/activity?limit=100&cursor=${deep}`, key)).body) as { cursor: string }).cursor;
    const stats = JSON.parse((await call(d.url, 'GET', '/activity/stats', key)).body) as { totalEvents: number };
    if (stats.totalEvents !== stored) throw new Error(`stats count ${stats.totalEvents} events of ${stored}`);
    const figures = {
      events: stored,
      'store built in s': buildSeconds,
      'GET /activity (first page, 20)': await timed('/activity'),
      'GET /activity?limit=100': await timed('/activity?limit=100'),
      'GET /activity?types=email.complaint (1 in 100,000)': await timed('/activity?types=email.complaint'),
      'GET /activity?types=email.open,email.click,signed-up': await timed('/activity?types=email.open,email.click,signed-up'),
      'GET /activity?contactId=...': await timed(`/activity?contactId=${contactIds[5]}`),
      'GET /activity, a window a month back': await timed(`/activity?to=${new Date(start + 60 * 24 * 3600_000).toISOString()}`),
      'GET /activity, page 52 by cursor': await timed(`/activity?cursor=${deep}`),
      'GET /activity/stats': await timed('/activity/stats'),
      'GET /events?limit=20 (same index, for comparison)': await timed('/events?limit=20'),
    };
    // last: it leaves the counters short of the events written while their triggers were gone
    return { name: 'activity', figures: { ...figures, ...(await countersCost(d)) } };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
