// What the delivery benchmarks share: filling the queue while delivery is held, and the CPU of
// each of the daemon's threads.
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type Server, type Socket } from 'node:net';
import type { MailEnv } from '../helpers/mail-env.js';
import { call } from './load.js';

/** Where the MX hosts point while the queue fills: an address that accepts connections and never answers. */
const SILENT_ADDRESS = '127.0.0.4';

/** The newsletter-like body the delivery benchmarks send (about 2.1 KB as delivered with its signature). */
export const NEWSLETTER = `<html><body><h1>Hello {{name}}</h1>${'<p>Some newsletter text with a <a href="https://example.com/a">link</a>.</p>'.repeat(6)}</body></html>`;

export interface FillOptions {
  count: number;
  recipient: (i: number) => string;
  /** The MX host names of the recipient domains and the address they resolve to for the timed drain. */
  mxHosts: string[];
  mxAddress: string;
  /** `delivery.port` of the daemon: the silent server listens there. */
  port: number;
  body?: string;
}

/** A TCP server that accepts and never says a word: deliveries to it wait (for minutes) without failing. */
async function silentServer(port: number): Promise<{ close(): void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    sockets.push(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, SILENT_ADDRESS, resolve);
  });
  return {
    close() {
      server.close();
      sockets.forEach((s) => s.destroy());
    },
  };
}

/**
 * Queues `count` emails through /v1/send (20 clients) while every MX host points at a silent
 * server, so that nothing is delivered (the few deliveries started wait there); then kills the
 * daemon (kill -9: those come back with the rest at the next start) and points the MX hosts at
 * `mxAddress`. The next `restart()` drains the queue.
 */
export async function fillHeld(env: MailEnv, opts: FillOptions): Promise<void> {
  const silent = await silentServer(opts.port);
  try {
    for (const host of opts.mxHosts) env.dns.set(host, 'A', [SILENT_ADDRESS]);
    // a fresh process: none of the addresses an earlier drain resolved is kept
    await env.daemon.kill();
    await env.daemon.restart();
    const key = env.daemon.project.secretKey;
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < opts.count) {
          const i = next++;
          const r = await call(env.daemon.url, 'POST', '/v1/send', key, {
            to: opts.recipient(i),
            from: 'news@sender.test',
            subject: 'Bench {{name}}',
            body: opts.body ?? NEWSLETTER,
            data: { name: `User ${i}` },
          });
          if (r.status !== 200) throw new Error(`send ${r.status}: ${r.body}`);
        }
      }),
    );
    await env.daemon.kill();
  } finally {
    silent.close();
  }
  for (const host of opts.mxHosts) env.dns.set(host, 'A', [opts.mxAddress]);
}

/** CPU time (ms) of each thread of a process, by thread id. */
export function threadCpu(pid: number): Map<number, number> {
  const ticksMs = 10; // USER_HZ is 100 on Linux
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * ticksMs);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Figures of CPU per delivered message: the process, the main thread, and the busiest other threads. */
export function cpuFigures(pid: number, before: Map<number, number>, after: Map<number, number>, delivered: number): Record<string, string> {
  const perMessage = (ms: number) => `${((ms * 1000) / delivered).toFixed(0)} µs/message (${ms} ms)`;
  const spent = [...after].map(([tid, ms]) => [tid, ms - (before.get(tid) ?? 0)] as const);
  const total = spent.reduce((n, [, ms]) => n + ms, 0);
  const others = spent.filter(([tid]) => tid !== pid).sort((a, b) => b[1] - a[1]);
  const figures: Record<string, string> = {
    'CPU, whole process': perMessage(total),
    'CPU, main thread': perMessage(after.get(pid)! - (before.get(pid) ?? 0)),
  };
  others.slice(0, 4).forEach(([tid, ms], i) => (figures[`CPU, other thread #${i + 1} (tid ${tid})`] = perMessage(ms)));
  figures['CPU, remaining threads'] = perMessage(others.slice(4).reduce((n, [, ms]) => n + ms, 0));
  return figures;
}

export const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
export const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface SinkCounts {
  total: number;
  byDomain: Record<string, number>;
}

/** The next message of a child process; rejects when it exits first. */
export function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${child.spawnargs.join(' ')} exited with ${code}`));
    child.once('exit', exited);
    child.once('message', (m) => {
      child.off('exit', exited);
      resolve(m as T);
    });
  });
}

/** The SMTP sink in a process of its own (sink-process.ts): its port and what it has received. */
export async function forkSink(): Promise<{ port: number; counts(): Promise<SinkCounts>; close(): void }> {
  const child = fork(fileURLToPath(new URL('./sink-process.js', import.meta.url)));
  const { port } = await nextMessage<{ port: number }>(child);
  return {
    port,
    counts() {
      const reply = nextMessage<SinkCounts>(child);
      child.send('count');
      return reply;
    },
    close: () => child.disconnect(),
  };
}
