// Delivery and /v1/send side by side: the drain of a queued backlog alone, /v1/send driven at full
// speed alone, then both at once. The SMTP sink and the load generator each run in a process of
// their own, so that neither's CPU is counted as the daemon's.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMailEnv, type MailEnv } from '../helpers/mail-env.js';
import { fillHeld, forkSink, nextMessage, threadCpu, type SinkCounts } from './drain.js';
import { closeAgent, type BenchResult, type LoadResult } from './load.js';

const BACKLOG = Number(process.env.FAIRNESS_BACKLOG ?? 30_000);
const LOAD_MS = Number(process.env.FAIRNESS_LOAD_MS ?? 10_000);
const CLIENTS = 20;
/** Backlog destinations: like a campaign's audience, spread over several domains (each has its own places, 5 by default). */
const DOMAINS = Number(process.env.FAIRNESS_DOMAINS ?? 10);
const backlogDomain = (i: number) => `backlog${i % DOMAINS}.test`;

type Sink = Awaited<ReturnType<typeof forkSink>>;

async function waitFor(sink: Sink, reached: (counts: SinkCounts) => boolean): Promise<void> {
  const end = performance.now() + 600_000;
  while (!reached(await sink.counts())) {
    if (performance.now() > end) throw new Error('the sink did not get the messages expected');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function sendLoad(env: MailEnv, domain: string): Promise<LoadResult> {
  const script = fileURLToPath(new URL('./send-load-process.js', import.meta.url));
  return nextMessage<LoadResult>(fork(script, [env.daemon.url, env.daemon.project.secretKey, String(LOAD_MS), String(CLIENTS), domain]));
}

const fill = (env: MailEnv, port: number) =>
  fillHeld(env, {
    count: BACKLOG,
    recipient: (i) => `user${i}@${backlogDomain(i)}`,
    mxHosts: Array.from({ length: DOMAINS }, (_, i) => `mx.${backlogDomain(i)}`),
    mxAddress: '127.0.0.1',
    port,
  });

/** Messages the sink got for the backlog's domains. */
const backlogCount = (counts: SinkCounts) => Array.from({ length: DOMAINS }, (_, i) => counts.byDomain[backlogDomain(i)] ?? 0).reduce((a, b) => a + b, 0);

/** The daemon's busiest threads over a phase, each as a share of one core. */
async function cpuShares<T>(pid: number, phase: () => Promise<T>): Promise<{ result: T; shares: string }> {
  const before = threadCpu(pid);
  const started = performance.now();
  const result = await phase();
  const ms = performance.now() - started;
  const busy = [...threadCpu(pid)].map(([tid, cpu]) => [tid, (cpu - (before.get(tid) ?? 0)) / ms] as const).sort((a, b) => b[1] - a[1]);
  return { result, shares: busy.slice(0, 5).map(([tid, share]) => `${tid === pid ? 'main' : tid} ${(share * 100).toFixed(0)}%`).join(', ') };
}

export async function run(): Promise<BenchResult> {
  const sink = await forkSink();
  const env = await startMailEnv({ config: { log: { level: 'error' }, delivery: { port: sink.port } } });
  try {
    await env.verifySender('sender.test');
    for (let i = 0; i < DOMAINS; i++) env.routeToSink(backlogDomain(i));
    env.routeToSink('fresh.test');

    // 1. the drain alone
    await fill(env, sink.port);
    const backlogBefore = backlogCount(await sink.counts());
    await env.daemon.restart();
    const drainStart = performance.now();
    const drain = await cpuShares(env.daemon.pid(), () => waitFor(sink, (c) => backlogCount(c) >= backlogBefore + BACKLOG));
    const drainAlone = BACKLOG / ((performance.now() - drainStart) / 1000);

    // 2. /v1/send alone (its own mail is delivered as it comes, as in production)
    const send = await cpuShares(env.daemon.pid(), () => sendLoad(env, 'fresh.test'));
    await waitFor(sink, (c) => (c.byDomain['fresh.test'] ?? 0) >= send.result.requests - send.result.errors);

    // 3. both: the backlog drains while /v1/send runs at full speed; deliveries are counted while
    // some of the backlog is left (a backlog drained before the end would understate the rate)
    await fill(env, sink.port);
    await env.daemon.restart();
    const before = await sink.counts();
    const bothStart = performance.now();
    let during = { counts: before, at: bothStart };
    const watching = (async () => {
      while (backlogCount(during.counts) - backlogCount(before) < BACKLOG && performance.now() - bothStart < LOAD_MS) {
        await new Promise((r) => setTimeout(r, 200));
        during = { counts: await sink.counts(), at: performance.now() };
      }
    })();
    const both = await cpuShares(env.daemon.pid(), () => sendLoad(env, 'fresh.test'));
    await watching;
    const seconds = (during.at - bothStart) / 1000;
    const backlogDuring = backlogCount(during.counts) - backlogCount(before);
    const deliveredDuring = during.counts.total - before.total;
    const load = (r: LoadResult) => `${r.perSecond}/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, load generator CPU ${r.clientCpuPercent}%`;
    return {
      name: 'delivery-fairness',
      figures: {
        'backlog queued': `${BACKLOG} emails to ${DOMAINS} domains`,
        'send load': `${CLIENTS} clients for ${LOAD_MS / 1000} s, in a process of its own`,
        'drain alone, deliveries/s': Math.round(drainAlone),
        'drain alone, daemon threads': drain.shares,
        '/v1/send alone': load(send.result),
        '/v1/send alone, daemon threads': send.shares,
        '/v1/send during the drain': load(both.result),
        'deliveries/s during the send load (backlog and new mail)': Math.round(deliveredDuring / seconds),
        'of which backlog/s': Math.round(backlogDuring / seconds),
        'counted over (s), backlog left': `${seconds.toFixed(1)}, ${BACKLOG - backlogDuring}`,
        'both, daemon threads': both.shares,
        'load average (1, 5, 15 min) at the end': readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', '),
        'delivery during load / alone': (deliveredDuring / seconds / drainAlone).toFixed(2),
        'send p99 during the drain / alone': (both.result.p99Ms / send.result.p99Ms).toFixed(2),
      },
    };
  } finally {
    closeAgent();
    await env.close();
    sink.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
