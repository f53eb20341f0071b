import { pathToFileURL } from 'node:url';
import { verifyDkim } from '../helpers/dkim-verify.js';
import { policyText, startTlsEnv } from '../helpers/tls-peers.js';
import { cpuFigures, fillHeld, peakRssMb, threadCpu } from './drain.js';
import { closeAgent, type BenchResult } from './load.js';

const EMAILS = Number(process.env.DELIVERY_EMAILS ?? 10_000);
const DOMAINS = 10;

/**
 * 10,000 emails queued for 10 destination domains while delivery is held, then the daemon restarts
 * and drains the durable queue into a loopback SMTP sink (in this process, over STARTTLS), DKIM
 * signing each: the figure is pure delivery, timed from the ready line. CPU is read per thread from
 * /proc over the drain (the sink's CPU is this process's, not the daemon's).
 *
 * Twice in one run: with MTA-STS off (opportunistic STARTTLS, the certificate not checked), and on,
 * each domain publishing an enforce policy (fetched over HTTPS while the queue filled, so cached in
 * the store, as a daemon that has mailed the domain before has it) and its MX certificate verified.
 */
async function drain(mtaSts: boolean): Promise<Record<string, string | number>> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startTlsEnv(
    { log: { level: 'error' }, delivery: { tls: { mtaSts } } },
    profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {},
  );
  try {
    const domains = Array.from({ length: DOMAINS }, (_, d) => `dest${d}.test`);
    for (const domain of domains) {
      await env.publishPolicy(domain, '1', policyText('enforce', [`mx.${domain}`]));
      await env.routeWithCertificate(domain, `mx.${domain}`, await env.ca.issue([`mx.${domain}`]));
    }
    await fillHeld(env, {
      count: EMAILS,
      recipient: (i) => `user${i}@dest${i % DOMAINS}.test`,
      mxHosts: domains.map((domain) => `mx.${domain}`),
      mxAddress: '127.0.0.1',
      port: env.sink.port,
    });
    const connectionsBefore = env.sink.connections;
    const fetches = env.https.requests.length;
    await env.daemon.restart(); // resolves at the ready line
    const started = performance.now();
    const pid = env.daemon.pid();
    const before = threadCpu(pid);
    await env.sink.waitFor(EMAILS, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const after = threadCpu(pid);
    const sample = await verifyDkim(env.sink.messages[EMAILS - 1]!.raw, env.dns.address);
    return {
      'delivered per second (DKIM signed, from the ready line)': Math.round(EMAILS / seconds),
      ...cpuFigures(pid, before, after, EMAILS),
      'SMTP connections opened by the drain': env.sink.connections - connectionsBefore,
      'messages over STARTTLS': env.sink.messages.filter((m) => m.secure).length,
      'MTA-STS policies fetched (filling / drain)': `${fetches} / ${env.https.requests.length - fetches}`,
      'sampled message DKIM': sample.pass ? 'pass' : 'FAIL',
      'daemon peak RSS MB (drain)': peakRssMb(pid),
    };
  } finally {
    await env.close();
  }
}

export async function run(): Promise<BenchResult> {
  try {
    const off = await drain(false);
    const on = await drain(true);
    const rate = (figures: Record<string, string | number>) => Number(figures['delivered per second (DKIM signed, from the ready line)']);
    return {
      name: 'delivery',
      figures: {
        emails: EMAILS,
        'destination domains': DOMAINS,
        ...Object.fromEntries(Object.entries(off).map(([figure, value]) => [`MTA-STS off: ${figure}`, value])),
        ...Object.fromEntries(Object.entries(on).map(([figure, value]) => [`MTA-STS on (cached, enforce): ${figure}`, value])),
        'delivery rate, MTA-STS on / off': (rate(on) / rate(off)).toFixed(2),
      },
    };
  } finally {
    closeAgent();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
