import { pathToFileURL } from 'node:url';
import { as, makeUser, signIn } from '../helpers/console-session.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { call, closeAgent, load, type BenchResult, type LoadResult } from './load.js';

const CLIENTS = 20;
const DURATION_MS = 10_000;
/** The Overview refreshes every 30 s; the bench's signed-in user asks every second, 30 times as often. */
const POLL_MS = 1000;

/**
 * A signed-in user with the Overview open, in a loop until `stop`: the console's page and its
 * script once (as a browser loads them), then the Overview's two reads (30-day chart, queue and
 * alerts) and /auth/me every POLL_MS through the session. Answers the latencies of those reads.
 */
function overviewPoller(d: TestDaemon, options: { headers?: Record<string, string> }, stop: () => boolean): Promise<number[]> {
  const read = async (path: string) => {
    const started = performance.now();
    const res = await fetch(new URL(path, d.url), { headers: options.headers ?? {} });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return performance.now() - started;
  };
  return (async () => {
    const latencies: number[] = [];
    const page = await (await fetch(new URL('/app/', d.url))).text();
    const script = /src="([^"]+\.js)"/.exec(page)?.[1];
    if (script) await (await fetch(new URL(script, d.url))).arrayBuffer();
    while (!stop()) {
      for (const path of ['/auth/me', '/stats/daily?days=30', '/stats/overview']) latencies.push(await read(path));
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return latencies;
  })();
}

/** One load round, with or without the console user polling beside it. */
async function round(d: TestDaemon, session: { headers?: Record<string, string> }, withConsole: boolean, request: (i: number) => Promise<boolean>): Promise<LoadResult & { consoleMaxMs: number }> {
  let done = false;
  const poller = withConsole ? overviewPoller(d, session, () => done) : Promise.resolve([]);
  const result = await load(CLIENTS, DURATION_MS, request);
  done = true;
  const polled = await poller;
  return { ...result, consoleMaxMs: Math.round(Math.max(0, ...polled)) };
}

/**
 * /v1/track and /v1/send (capture mode: composed, signed and stored as the whole path does) with
 * 20 clients, without and with a signed-in console user polling the Overview, in one run and in
 * the order without, with, with, without, so warm-up and drift fall on both sides.
 */
export async function run(): Promise<BenchResult> {
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' }, delivery: { mode: 'capture' } } });
  try {
    const domain = await d.request('POST', '/domains', { domain: 'bench.test' });
    await d.request('POST', `/domains/${domain.body.id}/mark-verified`);
    makeUser(d, 'owner@bench.test', { id: d.project.id, role: 'OWNER' });
    const session = as(d, await signIn(d, 'owner@bench.test'), d.project.id);
    const track = (i: number) =>
      call(d.url, 'POST', '/v1/track', d.project.publicKey, { email: `user${i % 10_000}@bench.test`, event: 'page-view', data: { visits: i } }).then((r) => r.status === 200);
    const send = (i: number) =>
      call(d.url, 'POST', '/v1/send', d.project.secretKey, {
        to: `customer${i % 10_000}@customers.test`,
        from: 'orders@bench.test',
        subject: `Order ${i}`,
        body: `<p>Thank you for order ${i}.</p>`.repeat(40),
      }).then((r) => r.status === 200);
    const figures: Record<string, string | number> = {};
    for (const [name, request] of [
      ['tracks/s', track],
      ['sends/s', send],
    ] as const) {
      const without = [await round(d, session, false, request)];
      const withConsole = [await round(d, session, true, request), await round(d, session, true, request)];
      without.push(await round(d, session, false, request));
      const mean = (rs: LoadResult[]) => Math.round(rs.reduce((s, r) => s + r.perSecond, 0) / rs.length);
      figures[`${name} without the console, rounds 1 / 4`] = without.map((r) => r.perSecond).join(' / ');
      figures[`${name} with a user polling the Overview every ${POLL_MS} ms, rounds 2 / 3`] = withConsole.map((r) => r.perSecond).join(' / ');
      figures[`${name}: with / without`] = (mean(withConsole) / mean(without)).toFixed(3);
      figures[`${name} p99 ms without / with`] = `${without.map((r) => r.p99Ms).join(', ')} / ${withConsole.map((r) => r.p99Ms).join(', ')}`;
      figures[`${name} errors`] = [...without, ...withConsole].reduce((s, r) => s + r.errors, 0);
      figures[`console reads during ${name}: slowest ms`] = Math.max(...withConsole.map((r) => r.consoleMaxMs));
    }
    return { name: 'console-load', figures };
  } finally {
    closeAgent();
    await d.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
