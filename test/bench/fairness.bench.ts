// Fairness between projects in every shared queue: another project's latency alone, then under one
// project's backlog, side by side. Each case passes when its p99 under the backlog is within twice
// its p99 alone, or under 1 s, whichever is larger.
//   workflow steps: 200 executions of one project whose webhooks answer after 5 s, and another
//     project's one-step webhook (track -> webhook received);
//   imports: six 30,000-row imports of one project, and another's one-row import (upload -> completed);
//   bulk jobs: forty 1,000-id bulk jobs of one project, and another's one-id job;
//   verify: one project keeping 40 verifications of names whose DNS never answers in flight, and
//     another's verification of a name DNS answers (each a new name: DNS is asked every time);
//   SMTP submission: one client address holding 200 idle connections, and another client's
//     submission (connect -> 250).
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import type { Keys } from '../helpers/daemon.js';
import { startMailEnv, type MailEnv } from '../helpers/mail-env.js';
import { call, closeAgent, type BenchResult } from './load.js';

const SAMPLES = Number(process.env.FAIRNESS_SAMPLES ?? 20);
const FLOOR_MS = 1000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};
const ms = (n: number) => `${Math.round(n)}`;

interface Case {
  name: string;
  alone: number[];
  loaded: number[];
  /** Whether the backlog was still there when the last sample under it was taken. */
  backlogHeld: boolean;
  /** Samples that failed (refused, or never completed). */
  failures: number;
}

/** The figures of a case: alone and under the backlog side by side, the bound and the verdict. */
function figuresOf(c: Case): Record<string, string> {
  const bound = Math.max(2 * percentile(c.alone, 0.99), FLOOR_MS);
  const p99 = percentile(c.loaded, 0.99);
  const ok = c.failures === 0 && c.backlogHeld && p99 <= bound;
  return {
    [`${c.name}: alone p50 / p99 ms`]: `${ms(percentile(c.alone, 0.5))} / ${ms(percentile(c.alone, 0.99))}`,
    [`${c.name}: under the backlog p50 / p99 ms`]: `${ms(percentile(c.loaded, 0.5))} / ${ms(p99)}${c.failures > 0 ? ` (${c.failures} of ${SAMPLES} failed)` : ''}`,
    [`${c.name}: bound (ms), verdict`]: `${ms(bound)}, ${ok ? 'ok' : c.backlogHeld ? 'OVER' : 'OVER (the backlog ended before the samples did)'}`,
  };
}

/** `n` samples one after another; a sample answers its latency, or null when it failed. */
async function samples(n: number, sample: (i: number) => Promise<number | null>): Promise<{ values: number[]; failures: number }> {
  const values: number[] = [];
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const value = await sample(i).catch(() => null);
    if (value === null) failures++;
    else values.push(value);
  }
  return { values, failures };
}

const until = async (check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> => {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
};

const json = async (env: MailEnv, method: string, path: string, key: string, body?: unknown) => {
  const r = await call(env.daemon.url, method, path, key, body);
  return { status: r.status, body: r.body ? JSON.parse(r.body) : null };
};

/** A webhook receiver: records when each contact's request came; answers after `delayMs` for paths under /slow. */
async function receiver(delayMs: number): Promise<{ url: string; arrivals: Map<string, number>; held: () => number; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const held = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/slow')) {
        held.add(res);
        setTimeout(() => {
          held.delete(res);
          if (!res.destroyed) res.writeHead(200).end('{}');
        }, delayMs).unref();
        return;
      }
      const email = (JSON.parse(Buffer.concat(chunks).toString()) as { contact: { email: string } }).contact.email;
      arrivals.set(email, performance.now());
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    held: () => held.size,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function webhookFlow(env: MailEnv, key: string, event: string, url: string): Promise<void> {
  const w = (await json(env, 'POST', '/workflows', key, { name: event, eventName: event })).body;
  const step = (await json(env, 'POST', `/workflows/${w.id}/steps`, key, { type: 'WEBHOOK', name: 'hook', config: { url } })).body;
  await json(env, 'POST', `/workflows/${w.id}/transitions`, key, { fromStepId: w.steps[0].id, toStepId: step.id });
  await json(env, 'PATCH', `/workflows/${w.id}`, key, { enabled: true });
}

async function workflowSteps(env: MailEnv): Promise<Case> {
  const hooks = await receiver(5000);
  try {
    const busy = env.daemon.createProject('steps-backlog');
    const other = env.daemon.createProject('steps-other');
    await webhookFlow(env, busy.secretKey, 'slow', `${hooks.url}/slow`);
    await webhookFlow(env, other.secretKey, 'quick', `${hooks.url}/fast`);
    const quick = (tag: string) => async (i: number) => {
      const email = `${tag}${i}@other.test`;
      const started = performance.now();
      await call(env.daemon.url, 'POST', '/v1/track', other.publicKey, { email, event: 'quick' });
      return (await until(() => hooks.arrivals.has(email), 60_000)) ? hooks.arrivals.get(email)! - started : null;
    };
    const alone = await samples(SAMPLES, quick('alone'));
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < 200) await call(env.daemon.url, 'POST', '/v1/track', busy.publicKey, { email: `slow${next++}@busy.test`, event: 'slow' });
      }),
    );
    await until(() => hooks.held() >= 16, 30_000);
    const loaded = await samples(SAMPLES, quick('loaded'));
    return { name: 'workflow steps (another project\'s one-step webhook)', alone: alone.values, loaded: loaded.values, failures: loaded.failures + alone.failures, backlogHeld: hooks.held() >= 16 };
  } finally {
    await hooks.close();
  }
}

async function upload(env: MailEnv, key: string, csv: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const res = await fetch(`${env.daemon.url}/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const body = (await res.json()) as { jobId: string };
  if (res.status !== 202) throw new Error(`import upload ${res.status}`);
  return body.jobId;
}

const jobEnded = async (env: MailEnv, path: string, key: string) => {
  const r = await json(env, 'GET', path, key);
  return r.body.state === 'completed' || r.body.state === 'failed';
};

/** Another project's small job (queued by `start`, polled at `path`) alone and beside `busy`'s backlog (queued by `backlog`). */
async function contactJobs(
  env: MailEnv,
  name: string,
  kind: 'import' | 'bulk',
  start: (key: string, i: number) => Promise<string>,
  backlog: (key: string) => Promise<string[]>,
): Promise<Case> {
  const busy = env.daemon.createProject(`${kind}-backlog`);
  const other = env.daemon.createProject(`${kind}-other`);
  const small = async (i: number) => {
    const started = performance.now();
    const id = await start(other.secretKey, i);
    return (await until(() => jobEnded(env, `/contacts/${kind}/${id}`, other.secretKey), 120_000)) ? performance.now() - started : null;
  };
  const alone = await samples(SAMPLES, small);
  const queued = await backlog(busy.secretKey);
  const loaded = await samples(SAMPLES, (i) => small(SAMPLES + i));
  const backlogHeld = !(await jobEnded(env, `/contacts/${kind}/${queued.at(-1)}`, busy.secretKey));
  await until(async () => (await Promise.all(queued.map((id) => jobEnded(env, `/contacts/${kind}/${id}`, busy.secretKey)))).every(Boolean), 300_000);
  return { name, alone: alone.values, loaded: loaded.values, failures: alone.failures + loaded.failures, backlogHeld };
}

const csvOf = (rows: number, prefix: string) => ['email,plan,score', ...Array.from({ length: rows }, (_, i) => `${prefix}${i}@imports.test,pro,${i}`)].join('\n');

const imports = (env: MailEnv) =>
  contactJobs(
    env,
    'imports (another project\'s one-row import)',
    'import',
    (key, i) => upload(env, key, csvOf(1, `small${i}-`)),
    async (key) => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(await upload(env, key, csvOf(30_000, `big${i}-`)));
      return ids;
    },
  );

const bulk = (env: MailEnv) =>
  contactJobs(
    env,
    'bulk jobs (another project\'s one-id job)',
    'bulk',
    async (key, i) => {
      const contact = (await json(env, 'POST', '/contacts', key, { email: `one${i}@bulk.test` })).body;
      return (await json(env, 'POST', '/contacts/bulk-unsubscribe', key, { contactIds: [contact.id] })).body.jobId as string;
    },
    async (key) => {
      const contactIds: string[] = [];
      for (let i = 0; i < 1000; i++) contactIds.push((await json(env, 'POST', '/contacts', key, { email: `many${i}@bulk.test` })).body.id);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await json(env, 'POST', `/contacts/bulk-${i % 2 ? 'subscribe' : 'unsubscribe'}`, key, { contactIds })).body.jobId);
      return ids;
    },
  );

async function verify(env: MailEnv): Promise<Case> {
  const busy = env.daemon.createProject('verify-backlog');
  const other = env.daemon.createProject('verify-other');
  const answering = (tag: string) => async (i: number) => {
    const domain = `${tag}${i}.answers.test`;
    env.dns.set(domain, 'NS', [`ns1.${domain}`]);
    env.dns.set(domain, 'MX', [{ exchange: `mx.${domain}`, priority: 10 }]);
    env.dns.set(domain, 'A', ['192.0.2.1']);
    const started = performance.now();
    const r = await call(env.daemon.url, 'POST', '/v1/verify', other.secretKey, { email: `ann@${domain}` });
    return r.status === 200 ? performance.now() - started : null;
  };
  const alone = await samples(SAMPLES, answering('alone'));
  let silent = 0;
  let stop = false;
  let inFlight = 0;
  const keepSilent = async () => {
    while (!stop) {
      const name = `silent${silent++}.test`;
      env.dns.misbehave(name, 'silent');
      inFlight++;
      await call(env.daemon.url, 'POST', '/v1/verify', busy.secretKey, { email: `a@${name}` }).catch(() => null);
      inFlight--;
    }
  };
  const pile = Array.from({ length: 40 }, keepSilent);
  await until(() => env.dns.asked('silent39.test') > 0, 30_000);
  const loaded = await samples(SAMPLES, answering('loaded'));
  const backlogHeld = inFlight >= 40;
  stop = true;
  void Promise.all(pile);
  return { name: 'verify (another project\'s verification, DNS asked)', alone: alone.values, loaded: loaded.values, failures: alone.failures + loaded.failures, backlogHeld };
}

/** `count` connections from `address` that read the greeting and then say nothing. */
async function idleConnections(port: number, address: string, count: number): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port, localAddress: address });
          socket.on('error', () => resolve(socket));
          socket.once('data', () => resolve(socket));
        }),
    ),
  );
}

async function submission(env: MailEnv, project: Keys): Promise<Case> {
  const port = env.daemon.submissionPort!;
  const submitOnce = async (i: number) => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
      localAddress: '127.0.0.3',
      auth: { user: 'postmill', pass: project.secretKey },
    });
    const started = performance.now();
    try {
      await transport.sendMail({ from: 'desk@fair.test', to: `client${i}@rcpt.test`, subject: 'Ticket', text: 'Hello' });
      return performance.now() - started;
    } finally {
      transport.close();
    }
  };
  const alone = await samples(SAMPLES, submitOnce);
  const idle = await idleConnections(port, '127.0.0.2', 200);
  const open = () => idle.filter((s) => !s.destroyed && s.readyState === 'open').length;
  const loaded = await samples(SAMPLES, (i) => submitOnce(SAMPLES + i));
  const backlogHeld = open() > 0;
  idle.forEach((s) => s.destroy());
  return { name: 'SMTP submission (another client\'s message, connect to 250)', alone: alone.values, loaded: loaded.values, failures: alone.failures + loaded.failures, backlogHeld };
}

export async function run(): Promise<BenchResult> {
  const env = await startMailEnv({ config: { log: { level: 'error' }, webhooks: { allowPrivate: true }, submission: { host: '127.0.0.1', port: 0 } } });
  try {
    const submitter = env.daemon.createProject('submission-other');
    await env.verifySender('fair.test', submitter);
    env.routeToSink('rcpt.test');
    const cases: Case[] = [];
    for (const bench of [workflowSteps, imports, bulk, verify, (e: MailEnv) => submission(e, submitter)]) cases.push(await bench(env));
    const load = loadavg().map((n) => n.toFixed(2)).join(', ');
    return {
      name: 'fairness',
      figures: {
        'samples per figure': SAMPLES,
        ...Object.assign({}, ...cases.map(figuresOf)),
        'load average (1, 5, 15 min) at the end': load,
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
