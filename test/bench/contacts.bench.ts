import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { insertContact } from '../../src/contacts/store.js';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const SEEDED = 100_000;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Contacts: upsert throughput, paging and search over 100,000 contacts, start time and memory. */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.secretKey;
    const upserts = await load(10, 5000, async (i) => {
      const r = await call(d.url, 'POST', '/contacts', key, { email: `u${i % 20000}@bench.test`, data: { plan: i % 3 ? 'pro' : 'free', n: i } });
      return r.status === 200 || r.status === 201;
    });

    await d.stop();
    const db = openStore(join(d.dataDir, 'store'));
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < SEEDED; i++) {
        insertContact(db, {
          id: randomUUID(),
          projectId: d.project.id,
          email: `seed${i}@bench${i % 50}.test`,
          subscribed: i % 4 !== 0,
          data: { plan: i % 2 ? 'pro' : 'free', seats: i % 100 },
          createdAt: now - i,
          updatedAt: now - i,
        });
      }
    })();
    db.close();

    const t0 = performance.now();
    await d.restart();
    const startMs = Math.round(performance.now() - t0);
    const rssAfterStart = rssMb(d.pid());

    const pageTimes: number[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const t = performance.now();
      const r = await call(d.url, 'GET', `/contacts?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key);
      pageTimes.push(performance.now() - t);
      const body = JSON.parse(r.body) as { cursor: string | null; hasMore: boolean };
      cursor = body.hasMore && body.cursor ? body.cursor : '';
      pages++;
    } while (cursor && pages < 2000);
    const firstPageMs = pageTimes[0]!;
    pageTimes.sort((a, b) => a - b);

    const searchTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await call(d.url, 'GET', `/contacts?search=seed${1000 + i * 37}@`, key);
      searchTimes.push(performance.now() - t);
    }
    searchTimes.sort((a, b) => a - b);
    const rssPeak = rssMb(d.pid());
    const r2 = (n: number) => Math.round(n * 100) / 100;
    return {
      name: 'contacts',
      figures: {
        'upserts/s (10 clients)': upserts.perSecond,
        'upsert p99 ms': upserts.p99Ms,
        'upsert errors': upserts.errors,
        'pages walked (limit=100)': pages,
        'first page ms (with total)': r2(firstPageMs),
        'page p99 ms': r2(pageTimes[Math.floor(pageTimes.length * 0.99)]!),
        'page max ms': r2(pageTimes[pageTimes.length - 1]!),
        'search p50 ms (100k)': r2(searchTimes[10]!),
        'search max ms (100k)': r2(searchTimes[searchTimes.length - 1]!),
        'start to ready ms (100k contacts)': startMs,
        'RSS MB after start': rssAfterStart,
        'RSS MB after paging': rssPeak,
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
