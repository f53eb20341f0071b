// Delivery and /v1/send side by side: the drain of a queued backlog alone, /v1/send driven at full
// speed alone, then both at once. The SMTP sink and the load generator each run in a process of
// their own, so that neither's CPU is counted as the daemon's.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMailEnv, type MailEnv } from '../helpers/mail-env.js';
import { fillHeld, threadCpu } from './drain.js';
import { closeAgent, type BenchResult, type LoadResult } from './load.js';

const BACKLOG = Number(process.env.FAIRNESS_BACKLOG ?? 10_000);
const LOAD_MS = Number(process.env.FAIRNESS_LOAD_MS ?? 10_000);
const CLIENTS = 20;
/** Backlog destinations: like a campaign's audience, spread over several domains (each has its own places, 5 by default). */
const DOMAINS = Number(process.env.FAIRNESS_DOMAINS ?? 10);
const backlogDomain = (i: number) => `backlog${i % DOMAINS}.test`;
const script = (name: string) => fileURLToPath(new URL(`./${name}.js`, import.meta.url));

interface SinkCounts {
  total: number;
  byDomain: Record<string, number>;
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${child.spawnargs.join(' ')} exited with ${code}`));
    child.once('exit', exited);
    child.once('message', (m) => {
      child.off('exit', exited);
      resolve(m as T);
    });
  });
}

async function sinkCounts(sink: ChildProcess): Promise<SinkCounts> {
  const reply = nextMessage<SinkCounts>(sink);
  sink.send('count');
  return reply;
}

async function waitFor(sink: ChildProcess, reached: (counts: SinkCounts) => boolean): Promise<void> {
  const end = performance.now() + 600_000;
  while (!reached(await sinkCounts(sink))) {
    if (performance.now() > end) throw new Error('the sink did not get the messages expected');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function sendLoad(env: MailEnv, domain: string): Promise<LoadResult> {
  const child = fork(script('send-load-process'), [env.daemon.url, env.daemon.project.secretKey, String(LOAD_MS), String(CLIENTS), domain]);
  return nextMessage<LoadResult>(child);
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

export async function run(): Promise<BenchResult> {
  const sink = fork(script('sink-process'));
  const { port } = await nextMessage<{ port: number }>(sink);
  const env = await startMailEnv({ config: { log: { level: 'error' }, delivery: { port } } });
  try {
    await env.verifySender('sender.test');
    for (let i = 0; i < DOMAINS; i++) env.routeToSink(backlogDomain(i));
    env.routeToSink('fresh.test');

    // 1. the drain alone
    await fill(env, port);
    let counts = await sinkCounts(sink);
    await env.daemon.restart();
    const drainStart = performance.now();
    const backlogBefore = backlogCount(counts);
    await waitFor(sink, (c) => backlogCount(c) >= backlogBefore + BACKLOG);
    const drainAlone = BACKLOG / ((performance.now() - drainStart) / 1000);

    // 2. /v1/send alone (its own mail is delivered as it comes, as in production)
    const sendAlone = await sendLoad(env, 'fresh.test');
    await waitFor(sink, (c) => (c.byDomain['fresh.test'] ?? 0) >= sendAlone.requests - sendAlone.errors);

    // 3. both: the backlog drains while /v1/send runs at full speed
    await fill(env, port);
    await env.daemon.restart();
    const before = await sinkCounts(sink);
    const pid = env.daemon.pid();
    const cpuBefore = threadCpu(pid);
    const both = await sendLoad(env, 'fresh.test');
    const after = await sinkCounts(sink);
    const cpuAfter = threadCpu(pid);
    const busy = [...cpuAfter].map(([tid, ms]) => [tid, (ms - (cpuBefore.get(tid) ?? 0)) / LOAD_MS] as const).sort((a, b) => b[1] - a[1]);
    const threadShares = busy.slice(0, 5).map(([tid, share]) => `${tid === pid ? 'main' : tid} ${(share * 100).toFixed(0)}%`).join(', ');
    const seconds = LOAD_MS / 1000;
    const backlogDuring = backlogCount(after) - backlogCount(before);
    const deliveredDuring = after.total - before.total;
    counts = after;
    return {
      name: 'delivery-fairness',
      figures: {
        'backlog queued': `${BACKLOG} emails to ${DOMAINS} domains`,
        'send load': `${CLIENTS} clients for ${seconds} s, in a process of its own`,
        'drain alone, deliveries/s': Math.round(drainAlone),
        '/v1/send alone': `${sendAlone.perSecond}/s, p50 ${sendAlone.p50Ms} ms, p99 ${sendAlone.p99Ms} ms, errors ${sendAlone.errors}`,
        '/v1/send during the drain': `${both.perSecond}/s, p50 ${both.p50Ms} ms, p99 ${both.p99Ms} ms, errors ${both.errors}`,
        'deliveries/s during the send load (backlog and new mail)': Math.round(deliveredDuring / seconds),
        'of which backlog/s': Math.round(backlogDuring / seconds),
        'backlog left at the end of the window': BACKLOG - backlogDuring,
        'delivery during load / alone': (deliveredDuring / seconds / drainAlone).toFixed(2),
        'send p99 during the drain / alone': (both.p99Ms / sendAlone.p99Ms).toFixed(2),
        'daemon CPU during both (share of one core, busiest threads)': threadShares,
        'sink messages in all': counts.total,
      },
    };
  } finally {
    closeAgent();
    await env.close();
    sink.disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
