import { Agent, request } from 'node:http';

export interface BenchResult {
  name: string;
  figures: Record<string, number | string>;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  /** CPU this process (the load generator) used, in percent of one core: it shares the machine with the daemon. */
  clientCpuPercent: number;
}

export interface HttpReply {
  status: number;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** A lean keep-alive HTTP client, so the load generator costs the daemon as little CPU as possible. */
export function call(base: string, method: string, path: string, key: string | null, body?: unknown): Promise<HttpReply> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Runs `concurrency` clients back to back for `durationMs` (bounded, or until `stopped`) and reports throughput and
 * latency. `send(i)` makes request number i and answers whether it succeeded.
 */
export async function load(
  concurrency: number,
  durationMs: number,
  send: (i: number) => Promise<boolean>,
  /** Ends the run early (work measured beside something else that finished). */
  stopped: () => boolean = () => false,
  /** Each client rests this long between requests (a steady rate instead of a flood); not counted in latencies. */
  pauseMs = 0,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && !stopped()) {
        const t0 = performance.now();
        const ok = await send(next++).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / elapsed),
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    maxMs: round(latencies[latencies.length - 1] ?? 0),
    errors,
    clientCpuPercent: Math.round((cpu.user + cpu.system) / 1e4 / elapsed),
  };
}

export function closeAgent(): void {
  agent.destroy();
}
