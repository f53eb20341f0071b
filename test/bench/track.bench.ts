import { pathToFileURL } from 'node:url';
import { startTestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const CLIENTS = 20;
const DURATION_MS = 10_000;

/** POST /v1/track: contact upsert plus event per request, 20 concurrent clients. */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const key = d.project.publicKey;
    const result = await load(CLIENTS, DURATION_MS, async (i) => {
      const r = await call(d.url, 'POST', '/v1/track', key, {
        email: `user${i % 10_000}@bench.test`,
        event: i % 4 === 0 ? 'purchase' : 'page-view',
        data: { plan: i % 3 ? 'pro' : 'free', visits: i, coupon: { value: `c${i}`, persistent: false } },
      });
      return r.status === 200;
    });
    return {
      name: 'track',
      figures: {
        [`tracks/s (${CLIENTS} clients)`]: result.perSecond,
        'p50 ms': result.p50Ms,
        'p99 ms': result.p99Ms,
        'max ms': result.maxMs,
        requests: result.requests,
        errors: result.errors,
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
