// Postmill against the Postfix relay on the same machine, into the same receiver (Postfix's
// smtp-sink on 127.0.0.3:25), using the Postfix benchmark kit named by POSTFIX_KIT (its README
// gives the protocol). Runs alternate, Postfix first; every run, the medians and the ratio are
// printed. Skips with a message where the kit, Postfix or root is missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { verifyDkim } from '../helpers/dkim-verify.js';
import { startMailEnv, type MailEnv } from '../helpers/mail-env.js';
import { cpuFigures, fillHeld, median, threadCpu } from './drain.js';
import { closeAgent, type BenchResult } from './load.js';

const N = Number(process.env.DRAIN_EMAILS ?? 2000);
const PAIRS = Math.max(3, Number(process.env.DRAIN_PAIRS ?? 3));
/** Bytes of the Postfix test message as sent: about the size of Postmill's messages as delivered, signature included (the kit adds ~240 on the way). */
const POSTFIX_SIZE = Number(process.env.POSTFIX_BENCH_MSG_SIZE ?? 2085);
const BENCH_DIR = process.env.POSTFIX_BENCH_DIR || '/tmp/postfix-bench';
const SINK_DIR = join(BENCH_DIR, 'sink');
const DOMAIN = 'example.test';

function skipReason(kit: string | undefined): string | null {
  if (!kit) return 'POSTFIX_KIT is not set (the directory of the Postfix benchmark kit: setup.sh, start.sh, postfix-drain.sh)';
  if (!existsSync(join(kit, 'postfix-drain.sh'))) return `${kit} holds no postfix-drain.sh`;
  if (process.getuid?.() !== 0) return 'needs root (Postfix and a listener on port 25)';
  if (spawnSync('sh', ['-c', 'command -v postconf && command -v smtp-sink']).status !== 0) return 'Postfix is not installed (the kit\'s setup.sh installs it)';
  return null;
}

const sinkFiles = () => readdirSync(SINK_DIR);
const clearSink = () => sinkFiles().forEach((f) => unlinkSync(join(SINK_DIR, f)));

/** A message as the sink stored it: without the lines smtp-sink puts in front, CRLF as on the wire. */
function asDelivered(file: string): Buffer {
  const lines = readFileSync(join(SINK_DIR, file), 'latin1').split('\n');
  let i = lines.findIndex((l) => l.startsWith('Received: ')) + 1;
  while (lines[i]?.startsWith('\t')) i++;
  return Buffer.from(lines.slice(i, -2).join('\r\n') + '\r\n', 'latin1');
}

const meanSize = () => {
  const files = sinkFiles();
  return Math.round(files.reduce((n, f) => n + asDelivered(f).length, 0) / Math.max(files.length, 1));
};

function postfixRun(kit: string): { rate: number; size: number } {
  const out = execFileSync(join(kit, 'postfix-drain.sh'), [String(N), String(POSTFIX_SIZE)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const rate = Number(/= (\d+) msg\/s/.exec(out)?.[1]);
  if (!rate) throw new Error(`postfix-drain.sh said: ${out}`);
  return { rate, size: meanSize() };
}

async function postmillRun(env: MailEnv): Promise<{ rate: number; size: number; cpu: Record<string, string>; dkim: boolean }> {
  await fillHeld(env, { count: N, recipient: (i) => `user${i}@${DOMAIN}`, mxHosts: [`mx.${DOMAIN}`], mxAddress: '127.0.0.3', port: 25 });
  clearSink();
  await env.daemon.restart(); // resolves at the ready line
  const started = performance.now();
  const pid = env.daemon.pid();
  const before = threadCpu(pid);
  while (sinkFiles().length < N) {
    if (performance.now() - started > 300_000) throw new Error(`timeout: ${sinkFiles().length} of ${N} in the sink`);
    await new Promise((r) => setTimeout(r, 20)); // as the kit's own daemon timing: listing the sink costs CPU
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuFigures(pid, before, threadCpu(pid), N);
  const sample = sinkFiles().slice(0, 3);
  const dkim = (await Promise.all(sample.map((f) => verifyDkim(asDelivered(f), env.dns.address)))).every((v) => v.pass);
  return { rate: Math.round(N / seconds), size: meanSize(), cpu, dkim };
}

export async function run(): Promise<BenchResult> {
  const kit = process.env.POSTFIX_KIT;
  const skip = skipReason(kit);
  if (skip || !kit) return { name: 'delivery-vs-postfix', figures: { skipped: skip ?? '' } };
  const sinkWasRunning = existsSync(join(BENCH_DIR, 'run', 'sink.pid')) && spawnSync('sh', ['-c', `kill -0 $(cat ${BENCH_DIR}/run/sink.pid)`]).status === 0;
  execFileSync(join(kit, 'start.sh'), { stdio: 'ignore' });
  const env = await startMailEnv({ config: { log: { level: 'error' }, delivery: { port: 25 } } });
  try {
    await env.verifySender('sender.test');
    env.dns.set(DOMAIN, 'MX', [{ exchange: `mx.${DOMAIN}`, priority: 10 }]);
    const figures: Record<string, string | number> = {
      messages: N,
      concurrency: 'Postfix stock (5 growing to 20 connections to the one destination); Postmill defaults (delivery.concurrency 100, slow start 5 growing to perDomainConcurrency 20, as many sessions to the one MX host)',
      signing: 'Postmill DKIM-signs every message (rsa-sha256, 2048-bit key); Postfix does not sign',
    };
    const postfix: number[] = [];
    const postmill: number[] = [];
    for (let i = 1; i <= PAIRS; i++) {
      const pf = postfixRun(kit);
      postfix.push(pf.rate);
      figures[`run ${i} Postfix`] = `${pf.rate} msg/s (mean ${pf.size} bytes delivered)`;
      const pm = await postmillRun(env);
      postmill.push(pm.rate);
      figures[`run ${i} Postmill`] = `${pm.rate} msg/s (mean ${pm.size} bytes delivered, DKIM sample ${pm.dkim ? 'pass' : 'FAIL'}); main thread ${pm.cpu['CPU, main thread']}`;
    }
    figures['load average (1, 5, 15 min) at the end'] = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');
    figures['Postfix median'] = `${median(postfix)} msg/s`;
    figures['Postmill median'] = `${median(postmill)} msg/s`;
    figures['ratio Postmill / Postfix (medians)'] = (median(postmill) / median(postfix)).toFixed(2);
    return { name: 'delivery-vs-postfix', figures };
  } finally {
    closeAgent();
    await env.close();
    if (!sinkWasRunning) execFileSync(join(kit, 'stop.sh'), { stdio: 'ignore' });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
