// Memory while draining a large queue: 100,000 queued emails delivered to a sink in a process of
// its own; the daemon's RSS is sampled through the drain.
import { pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { fillHeld, forkSink, peakRssMb, rssMb } from './drain.js';
import { closeAgent, type BenchResult } from './load.js';

const EMAILS = Number(process.env.MEMORY_EMAILS ?? 100_000);
const DOMAINS = 10;

export async function run(): Promise<BenchResult> {
  const sink = await forkSink();
  const { port } = sink;
  const env = await startMailEnv({ config: { log: { level: 'error' }, delivery: { port } } });
  try {
    await env.verifySender('sender.test');
    const domains = Array.from({ length: DOMAINS }, (_, d) => `dest${d}.test`);
    domains.forEach((domain) => env.routeToSink(domain));
    const fillStart = performance.now();
    await fillHeld(env, {
      count: EMAILS,
      recipient: (i) => `user${i}@dest${i % DOMAINS}.test`,
      mxHosts: domains.map((domain) => `mx.${domain}`),
      mxAddress: '127.0.0.1',
      port,
    });
    const fillSeconds = (performance.now() - fillStart) / 1000;
    await env.daemon.restart();
    const started = performance.now();
    const pid = env.daemon.pid();
    let peakSampled = 0;
    const samples: number[] = [];
    for (let delivered = 0; delivered < EMAILS; delivered = (await sink.counts()).total) {
      if (performance.now() - started > 1_800_000) throw new Error(`the drain stalled at ${delivered} of ${EMAILS}`);
      const rss = rssMb(pid);
      peakSampled = Math.max(peakSampled, rss);
      samples.push(rss);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const quarter = (q: number) => samples[Math.min(samples.length - 1, Math.floor((samples.length * q) / 4))] ?? 0;
    return {
      name: 'delivery-memory',
      figures: {
        'emails drained': EMAILS,
        'queued through /v1/send in (s)': Math.round(fillSeconds),
        'delivered per second': Math.round(EMAILS / seconds),
        'daemon RSS MB at 25/50/75/100% of the drain': `${quarter(1)} / ${quarter(2)} / ${quarter(3)} / ${quarter(4)}`,
        'daemon peak RSS MB (kernel high-water mark)': peakRssMb(pid),
        'daemon peak RSS MB (sampled every 250 ms)': peakSampled,
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
