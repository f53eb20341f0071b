import { pathToFileURL } from 'node:url';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult, type LoadResult } from './load.js';

const ROWS = 50_000;
const ROUNDS = 3;
const TRACK_CLIENTS = 10;
const IDLE_MS = 3000;
const MAX_BYTES = 5 * 1024 * 1024;

/** About 5 MB: 50,000 rows of 6 columns with a quoted cell, the header first. */
function csv(round: number): Buffer {
  const lines = ['email,firstName,lastName,plan,visits,subscribed'];
  for (let i = 0; i < ROWS; i++) {
    lines.push(`r${round}-person${i}@company${i % 500}.example,Firstname${i},"Lastname, the ${i % 97}th",plan-${i % 7}-${'x'.repeat(16)},${i * 3},${i % 3 ? 'true' : 'no'}`);
  }
  const file = Buffer.from(lines.join('\r\n') + '\r\n');
  if (file.length > MAX_BYTES) throw new Error(`bench file is ${file.length} bytes`);
  return file;
}

async function upload(d: TestDaemon, file: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'contacts.csv');
  const res = await fetch(d.url + '/contacts/import', { method: 'POST', headers: { authorization: `Bearer ${d.project.secretKey}` }, body: form });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

const trackLoad = (d: TestDaemon, maxMs: number, stopped: () => boolean = () => false): Promise<LoadResult> =>
  load(
    TRACK_CLIENTS,
    maxMs,
    async (i) => {
      const r = await call(d.url, 'POST', '/v1/track', d.project.publicKey, { email: `t${i % 5000}@track.example`, event: 'page-view', data: { n: i } });
      return r.status === 200;
    },
    stopped,
  );

/**
 * A 5 MB CSV import (upload to completed) while 10 clients track events, alternating with the same
 * track load on an idle daemon: the import's time, and /v1/track p99 beside it and without it.
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' } } });
  try {
    const files = Array.from({ length: ROUNDS }, (_, round) => csv(round));
    const figures: Record<string, number | string> = { 'file MB': Math.round((files[0]!.length / 1024 / 1024) * 100) / 100, rows: ROWS };
    const importSeconds: number[] = [];
    const idleP99: number[] = [];
    const busyP99: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const idle = await trackLoad(d, IDLE_MS);
      idleP99.push(idle.p99Ms);

      let done = false;
      const t0 = performance.now();
      const busy = trackLoad(d, 60_000, () => done);
      const jobId = await upload(d, files[round]!);
      for (;;) {
        const job = JSON.parse((await call(d.url, 'GET', `/contacts/import/${jobId}`, d.project.secretKey)).body) as { state: string; result: { created: number } };
        if (job.state === 'failed') throw new Error('import failed');
        if (job.state === 'completed') {
          if (job.result.created !== ROWS) throw new Error(`created ${job.result.created}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      importSeconds.push(Math.round(performance.now() - t0) / 1000);
      done = true;
      const during = await busy;
      busyP99.push(during.p99Ms);
      figures[`round ${round + 1}`] =
        `import ${importSeconds[round]} s; track p99 ${during.p99Ms} ms during (${during.requests} req, ${during.errors} errors), ${idle.p99Ms} ms idle (${idle.perSecond}/s)`;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    figures['import s (median)'] = median(importSeconds);
    figures['rows/s (median)'] = Math.round(ROWS / median(importSeconds));
    figures['track p99 during import, ms (median)'] = median(busyP99);
    figures['track p99 idle, ms (median)'] = median(idleP99);
    figures['p99 ratio during/idle'] = Math.round((median(busyP99) / median(idleP99)) * 100) / 100;
    return { name: 'import', figures };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
