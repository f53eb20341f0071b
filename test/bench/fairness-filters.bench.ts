import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon, type Keys, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, type BenchResult, type HttpReply } from './load.js';

// One project's heavy filter against everyone else (issue 23, item 3): 200 ORed `contains` tests
// over 241,000 contacts, which held /health for 18.4 s when it ran on the main thread. While it
// runs, /health, another project's GET /contacts and that project's segment page (a read on the
// reader threads too) are asked one after the other; each phase restarts the daemon with its
// `reads` settings. `npm run bench fairness-filters`; BENCH_CONTACTS scales it down.

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 241_000);
const UUID_SQL = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
/** Matches nobody, so it reads every contact: 200 JSON tests a contact. */
const HEAVY = { logic: 'OR', groups: Array.from({ length: 200 }, (_, i) => ({ filters: [{ field: 'data.note', operator: 'contains', value: `zz${i}` }] })) };

const r1 = (n: number) => Math.round(n * 10) / 10;
const quantile = (xs: number[], q: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!);
const summary = (xs: number[]) => `p50 ${r1(quantile(xs, 0.5))}, p99 ${r1(quantile(xs, 0.99))}, max ${r1(Math.max(...xs))} ms (${xs.length} requests)`;

interface Probe {
  name: string;
  path: string;
  key: string | null;
}

/** Asks each probe in turn until `until` settles (or `count` rounds when it is null); their latencies by name. */
async function probe(d: TestDaemon, probes: Probe[], until: Promise<unknown> | null, count = 100): Promise<Map<string, number[]>> {
  const ms = new Map(probes.map((p) => [p.name, [] as number[]]));
  let done = false;
  void until?.then(
    () => (done = true),
    () => (done = true),
  );
  for (let round = 0; until ? !done : round < count; round++) {
    for (const p of probes) {
      const t = performance.now();
      const r = await call(d.url, 'GET', p.path, p.key);
      if (r.status !== 200) throw new Error(`${p.name}: ${r.status} ${r.body}`);
      ms.get(p.name)!.push(performance.now() - t);
    }
  }
  return ms;
}

/** Waits (bounded) until no count job is queued or running: a phase measures one heavy read, not two. */
async function countsDone(d: TestDaemon): Promise<void> {
  const store = new Database(join(d.dataDir, 'store', 'postmill.db'), { readonly: true });
  try {
    const left = store.prepare("SELECT COUNT(*) FROM jobs WHERE kind = 'segments.count'").pluck();
    const end = Date.now() + 120_000;
    while ((left.get() as number) > 0) {
      if (Date.now() > end) throw new Error('segment count jobs still queued after 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    store.close();
  }
}

async function reconfigure(d: TestDaemon, reads: Record<string, number>): Promise<void> {
  const config = JSON.parse(readFileSync(d.configFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(d.configFile, JSON.stringify({ ...config, reads }));
  await d.stop();
  await d.restart();
}

export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const heavyKey = d.project.secretKey;
    const api = async (key: string, method: string, path: string, body?: unknown) => {
      const r = await call(d.url, method, path, key, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
      return JSON.parse(r.body);
    };
    const other: Keys = d.createProject('other');
    for (let i = 0; i < 200; i++) await api(other.secretKey, 'POST', '/contacts', { email: `o${i}@other.test`, data: { n: i } });
    const small = await api(other.secretKey, 'POST', '/segments', { name: 'small', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.n', operator: 'lessThan', value: 50 }] }] } });
    // a second project as heavy as the first: with both counting, both reader threads are busy
    const second: Keys = d.createProject('second heavy');

    await countsDone(d);
    await d.stop();
    // contacts and the heavy segment straight into the store: no count job of 241,000 contacts before the phases
    const db = openStore(join(d.dataDir, 'store'));
    const now = Date.now();
    const heavyId = randomUUID();
    const secondId = randomUUID();
    for (const [segmentId, projectId] of [
      [heavyId, d.project.id],
      [secondId, second.id],
    ]) {
      db.prepare("INSERT INTO segments (id, project_id, name, slug, type, condition, created_at, updated_at) VALUES (?, ?, 'heavy', 'heavy', 'DYNAMIC', ?, ?, ?)").run(
        segmentId,
        projectId,
        JSON.stringify(HEAVY),
        now,
        now,
      );
      db.prepare(
        `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
         INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
         SELECT ${UUID_SQL}, ?, 'user' || x || '@bench.test', 'user' || x || '@bench.test', 1,
           json_object('name', 'name ' || x, 'city', 'city ' || (x % 1000), 'note', hex(randomblob(20))), ? - x, ? - x FROM n`,
      ).run(CONTACTS, projectId, now, now);
    }
    db.exec('ANALYZE');
    db.close();
    await d.restart();

    const probes: Probe[] = [
      { name: 'GET /health', path: '/health', key: null },
      { name: "another project's GET /contacts", path: '/contacts?limit=20', key: other.secretKey },
      { name: "another project's segment page", path: `/segments/${small.id}/contacts`, key: other.secretKey },
    ];
    const figures: Record<string, string | number> = { contacts: CONTACTS, 'heavy filter': '200 ORed contains on data.note, matching nobody' };
    const heavyReads: Record<string, () => Promise<HttpReply>[]> = {
      'heavy count (POST refresh)': () => [call(d.url, 'POST', `/segments/${heavyId}/refresh`, heavyKey)],
      'heavy page (GET /segments/{id}/contacts: page, then count)': () => [call(d.url, 'GET', `/segments/${heavyId}/contacts`, heavyKey)],
      'heavy counts of two projects at once (both threads busy)': () => [
        call(d.url, 'POST', `/segments/${heavyId}/refresh`, heavyKey),
        call(d.url, 'POST', `/segments/${secondId}/refresh`, second.secretKey),
      ],
    };
    const phase = async (label: string, reads: Record<string, number>, which: string[]) => {
      await reconfigure(d, reads);
      await countsDone(d);
      await probe(d, probes, null, 10); // warm: the first segment page starts a reader thread
      const alone = await probe(d, probes, null, 200);
      for (const p of probes) figures[`${label}: ${p.name} alone`] = summary(alone.get(p.name)!);
      for (const what of which) {
        const started = performance.now();
        const heavyRead = Promise.all(heavyReads[what]!());
        const during = await probe(d, probes, heavyRead);
        const answers = (await heavyRead).map((a) => `${a.status}${a.status === 422 ? ` (${JSON.parse(a.body).error.code})` : ''}`);
        figures[`${label}: ${what}`] = `${answers.join(', ')} after ${r1((performance.now() - started) / 1000)} s`;
        for (const p of probes) figures[`${label}: ${p.name} during the ${what.split(' (')[0]}`] = summary(during.get(p.name)!);
      }
    };
    await phase('2 reader threads, budget 300 s', { threads: 2, requestBudgetMs: 300_000, jobBudgetMs: 300_000 }, ['heavy count (POST refresh)', 'heavy page (GET /segments/{id}/contacts: page, then count)', 'heavy counts of two projects at once (both threads busy)']);
    await phase('1 reader thread, budget 300 s', { threads: 1, requestBudgetMs: 300_000, jobBudgetMs: 300_000 }, ['heavy count (POST refresh)']);
    await phase('defaults (2 threads, budget 5 s)', { threads: 2, requestBudgetMs: 5000, jobBudgetMs: 60_000 }, ['heavy page (GET /segments/{id}/contacts: page, then count)']);
    return { name: 'fairness-filters', figures };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
