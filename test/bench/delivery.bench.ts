import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { verifyDkim } from '../helpers/dkim-verify.js';
import { call, closeAgent, type BenchResult } from './load.js';

const EMAILS = 10_000;
const DOMAINS = 10;

const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** 10,000 emails to 10 destination domains through DKIM signing and SMTP to a loopback sink. */
export async function run(): Promise<BenchResult> {
  const env = await startMailEnv({ config: { log: { level: 'error' } }, daemon: process.env.BENCH_PROFILE ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] } : {} });
  try {
    await env.verifySender('sender.test');
    for (let d = 0; d < DOMAINS; d++) env.routeToSink(`dest${d}.test`);
    const key = env.daemon.project.secretKey;
    const body = `<html><body><h1>Hello {{name}}</h1>${'<p>Some newsletter text with a <a href="https://example.com/a">link</a>.</p>'.repeat(40)}</body></html>`;
    const started = performance.now();
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
    const queuedMs = performance.now() - started;
    await env.sink.waitFor(EMAILS, 300_000);
    const totalMs = performance.now() - started;
    const sample = await verifyDkim(env.sink.messages[EMAILS - 1]!.raw, env.dns.address);
    return {
      name: 'delivery',
      figures: {
        emails: EMAILS,
        'destination domains': DOMAINS,
        'accepted by /v1/send per second': Math.round(EMAILS / (queuedMs / 1000)),
        'delivered per second (send start to last delivery)': Math.round(EMAILS / (totalMs / 1000)),
        'total seconds': Math.round(totalMs / 100) / 10,
        'SMTP connections opened': env.sink.connections,
        'sampled message DKIM': sample.pass ? 'pass' : 'FAIL',
        'daemon peak RSS MB': peakRssMb(env.daemon.pid()),
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
