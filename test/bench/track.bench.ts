import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore } from '../../src/store/db.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult, type LoadResult } from './load.js';

const CLIENTS = 20;
const DURATION_MS = 10_000;

/** Drops (or puts back) the triggers of the overview's daily rollup (migration 090), the daemon stopped meanwhile. */
async function rollupTriggers(d: TestDaemon, saved: { name: string; sql: string }[], on: boolean): Promise<{ name: string; sql: string }[]> {
  await d.stop();
  const db = openStore(join(d.dataDir, 'store'));
  try {
    const found = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'email_daily_%'").all() as { name: string; sql: string }[];
    if (on) for (const t of saved) db.exec(t.sql);
    else for (const t of found) db.exec(`DROP TRIGGER ${t.name}`);
    return on ? saved : found;
  } finally {
    db.close();
    await d.restart();
  }
}

/**
 * POST /v1/track: contact upsert plus event per request, 20 concurrent clients; run with the daily
 * rollup's triggers on events and without them, in one run, in the order with, without, without,
 * with (so warm-up and drift on a shared machine fall on both sides).
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.publicKey;
    const round = () =>
      load(CLIENTS, DURATION_MS, async (i) => {
        const r = await call(d.url, 'POST', '/v1/track', key, {
          email: `user${i % 10_000}@bench.test`,
          event: i % 4 === 0 ? 'purchase' : 'page-view',
          data: { plan: i % 3 ? 'pro' : 'free', visits: i, coupon: { value: `c${i}`, persistent: false } },
        });
        return r.status === 200;
      });
    const withRollup: LoadResult[] = [];
    const without: LoadResult[] = [];
    let saved: { name: string; sql: string }[] = [];
    // with, without, without, with: a later round runs warmer, so each side gets an early and a late one
    withRollup.push(await round());
    saved = await rollupTriggers(d, saved, false);
    without.push(await round());
    without.push(await round());
    await rollupTriggers(d, saved, true);
    withRollup.push(await round());
    const [result] = withRollup;
    const rates = (rs: LoadResult[]) => rs.map((r) => r.perSecond).join(' / ');
    return {
      name: 'track',
      figures: {
        [`tracks/s (${CLIENTS} clients)`]: result!.perSecond,
        'p50 ms': result!.p50Ms,
        'p99 ms': result!.p99Ms,
        'max ms': result!.maxMs,
        requests: result!.requests,
        errors: withRollup.concat(without).reduce((sum, r) => sum + r.errors, 0),
        'tracks/s with the daily rollup triggers, rounds 1 / 4': rates(withRollup),
        'tracks/s without them, rounds 2 / 3': rates(without),
        'p99 ms with (rounds 1, 4) / without (rounds 2, 3)': `${withRollup.map((r) => r.p99Ms).join(', ')} / ${without.map((r) => r.p99Ms).join(', ')}`,
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
