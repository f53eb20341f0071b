import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { verifyDkim } from '../helpers/dkim-verify.js';
import { call, closeAgent, type BenchResult } from './load.js';

const EMAILS = 10_000;
const DOMAINS = 10;

const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** Rewrites one key of the daemon's config file (applied at the next start). */
function setDeliveryConcurrency(configFile: string, concurrency: number): void {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { delivery: Record<string, unknown> };
  config.delivery.concurrency = concurrency;
  writeFileSync(configFile, JSON.stringify(config));
}

/**
 * 10,000 emails queued for 10 destination domains, then delivered with DKIM signing to a loopback
 * sink. Queued with delivery throttled to one at a time, then the daemon restarts with full
 * concurrency and the durable queue is drained: the figure is pure delivery.
 */
export async function run(): Promise<BenchResult> {
  const profile = process.env.BENCH_PROFILE;
  const env = await startMailEnv({
    config: { log: { level: 'error' }, delivery: { concurrency: 1 } },
    ...(profile ? { daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } } : {}),
  });
  try {
    await env.verifySender('sender.test');
    for (let d = 0; d < DOMAINS; d++) env.routeToSink(`dest${d}.test`);
    const key = env.daemon.project.secretKey;
    const body = `<html><body><h1>Hello {{name}}</h1>${'<p>Some newsletter text with a <a href="https://example.com/a">link</a>.</p>'.repeat(40)}</body></html>`;
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < EMAILS) {
          const i = next++;
          const r = await call(env.daemon.url, 'POST', '/v1/send', key, {
            to: `user${i}@dest${i % DOMAINS}.test`,
            from: 'news@sender.test',
            subject: 'Bench {{name}}',
            body,
            data: { name: `User ${i}` },
          });
          if (r.status !== 200) throw new Error(`send ${r.status}: ${r.body}`);
        }
      }),
    );
    await env.daemon.stop();
    const deliveredWhileQueueing = env.sink.messages.length;
    setDeliveryConcurrency(env.daemon.configFile, 50);
    const started = performance.now();
    await env.daemon.restart();
    await env.sink.waitFor(EMAILS, 300_000);
    const seconds = (performance.now() - started) / 1000;
    const sample = await verifyDkim(env.sink.messages[EMAILS - 1]!.raw, env.dns.address);
    return {
      name: 'delivery',
      figures: {
        emails: EMAILS,
        'destination domains': DOMAINS,
        'delivered from the queue after restart': EMAILS - deliveredWhileQueueing,
        'delivered per second (DKIM signed, restart included)': Math.round((EMAILS - deliveredWhileQueueing) / seconds),
        'SMTP connections opened (whole run)': env.sink.connections,
        'sampled message DKIM': sample.pass ? 'pass' : 'FAIL',
        'daemon peak RSS MB (drain phase)': peakRssMb(env.daemon.pid()),
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
