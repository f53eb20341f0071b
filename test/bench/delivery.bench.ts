import { pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { verifyDkim } from '../helpers/dkim-verify.js';
import { cpuFigures, fillHeld, peakRssMb, threadCpu } from './drain.js';
import { closeAgent, type BenchResult } from './load.js';

const EMAILS = Number(process.env.DELIVERY_EMAILS ?? 10_000);
const DOMAINS = 10;

/**
 * 10,000 emails queued for 10 destination domains while delivery is held, then the daemon restarts
 * and drains the durable queue into a loopback SMTP sink (in this process), DKIM signing each: the
 * figure is pure delivery, timed from the ready line. CPU is read per thread from /proc over the
 * drain (the sink's CPU is this process's, not the daemon's).
 */
export async function run(): Promise<BenchResult> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startMailEnv({
    config: { log: { level: 'error' } },
    ...(profile ? { daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } } : {}),
  });
  try {
    await env.verifySender('sender.test');
    const domains = Array.from({ length: DOMAINS }, (_, d) => `dest${d}.test`);
    domains.forEach((domain) => env.routeToSink(domain));
    await fillHeld(env, {
      count: EMAILS,
      recipient: (i) => `user${i}@dest${i % DOMAINS}.test`,
      mxHosts: domains.map((domain) => `mx.${domain}`),
      mxAddress: '127.0.0.1',
      port: env.sink.port,
    });
    const connectionsBefore = env.sink.connections;
    await env.daemon.restart(); // resolves at the ready line
    const started = performance.now();
    const pid = env.daemon.pid();
    const before = threadCpu(pid);
    await env.sink.waitFor(EMAILS, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const after = threadCpu(pid);
    const sample = await verifyDkim(env.sink.messages[EMAILS - 1]!.raw, env.dns.address);
    return {
      name: 'delivery',
      figures: {
        emails: EMAILS,
        'destination domains': DOMAINS,
        'delivered per second (DKIM signed, from the ready line)': Math.round(EMAILS / seconds),
        ...cpuFigures(pid, before, after, EMAILS),
        'SMTP connections opened by the drain': env.sink.connections - connectionsBefore,
        'sampled message DKIM': sample.pass ? 'pass' : 'FAIL',
        'daemon peak RSS MB (drain)': peakRssMb(pid),
      },
    };
  } finally {
    closeAgent();
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
