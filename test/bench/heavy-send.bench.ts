import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMailEnv } from '../helpers/mail-env.js';
import { forkSink, nextMessage } from './drain.js';
import { call, closeAgent, type BenchResult } from './load.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 30_000);
const MB = 1024 * 1024;

const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const BIG_ATTACHMENT = randomBytes(10 * MB).toString('base64');
const SMALL_ATTACHMENT = randomBytes(300 * 1024).toString('base64');
const REPORT = 'All the words of a long report, line after line. '.repeat(220_000);

/** The largest single message the limits allow: 10 MB of attachments and an HTML body filling the rest of 40 MB composed. */
function largestSingle(i: number) {
  return {
    to: `big${i}@dest.test`,
    from: 'news@sender.test',
    subject: 'Large {{name}}',
    data: { name: `Big ${i}` },
    body: `<html><body><h1>Hello {{name}}</h1><p>${REPORT}</p></body></html>`,
    attachments: [{ filename: 'data.bin', content: BIG_ATTACHMENT, contentType: 'application/octet-stream' }],
  };
}

/** The largest fan-out: 50 recipients whose messages together stay under 40 MB. */
function largestFanOut(i: number) {
  return {
    to: Array.from({ length: 50 }, (_, r) => ({ email: `fan${i}-${r}@dest.test`, name: `Reader ${r}` })),
    from: 'news@sender.test',
    subject: 'Digest for {{name}}',
    body: `<html><body><h1>Hello {{name}}</h1>${'<p>A paragraph of the digest with a <a href="https://example.com/a">link</a>.</p>'.repeat(2_500)}</body></html>`,
    attachments: [{ filename: 'digest.pdf', content: SMALL_ATTACHMENT, contentType: 'application/pdf' }],
  };
}

/**
 * Issue 10 item 1: while one project sends the largest requests the limits allow (back to back,
 * two at a time, delivered to a loopback sink), another project probes /health and /v1/track.
 * The figures: the probes' worst latency, and the daemon's peak RSS. The sink and the probe run
 * in processes of their own: neither receiving 40 MB messages nor building 40 MB bodies may stall
 * the probe's clock.
 */
export async function run(): Promise<BenchResult> {
  const sink = await forkSink();
  const delivery = { port: sink.port, ...(process.env.BENCH_DELIVERY ? JSON.parse(process.env.BENCH_DELIVERY) : {}) };
  const env = await startMailEnv({ config: { log: { level: 'error' }, delivery } });
  const drainSink = setInterval(() => void sink.counts(), 2_000);
  try {
    await env.verifySender('sender.test');
    env.routeToSink('dest.test');
    const heavyKey = env.daemon.project.secretKey;
    const other = env.daemon.createProject('probe');
    const pid = env.daemon.pid();
    const rssStart = status(pid, 'VmRSS');
    const end = performance.now() + DURATION_MS;
    let sent = 0;
    let heavyErrors = 0;
    const heavy = async (make: (i: number) => unknown) => {
      while (performance.now() < end) {
        const r = await call(env.daemon.url, 'POST', '/v1/send', heavyKey, make(sent));
        if (r.status === 200) sent++;
        else heavyErrors++;
      }
    };
    const probeScript = fileURLToPath(new URL('./probe-process.js', import.meta.url));
    const probe = nextMessage<{ health: number[]; track: number[]; errors: number }>(fork(probeScript, [env.daemon.url, other.publicKey, String(DURATION_MS)]));
    const [probes] = await Promise.all([probe, heavy(largestSingle), heavy(largestFanOut)]);
    const worst = (xs: number[]) => Math.round(Math.max(...xs));
    const p99 = (xs: number[]) => Math.round(xs.sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0);
    return {
      name: 'heavy-send',
      figures: {
        'heavy requests answered 200': sent,
        'heavy requests refused': heavyErrors,
        'health probes': probes.health.length,
        'health max ms': worst(probes.health),
        'health p99 ms': p99(probes.health),
        'track (other project) max ms': worst(probes.track),
        'track p99 ms': p99(probes.track),
        'probe errors': probes.errors,
        'daemon RSS at start MB': Math.round(rssStart),
        'daemon peak RSS MB': Math.round(status(pid, 'VmHWM')),
      },
    };
  } finally {
    clearInterval(drainSink);
    closeAgent();
    await env.close();
    sink.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
