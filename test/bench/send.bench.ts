import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createSocket } from 'node:dgram';
import { pathToFileURL } from 'node:url';
import { insertKey } from '../../src/domains/key-store.js';
import { generateRsaKey } from '../../src/domains/keys.js';
import { insertDomain } from '../../src/domains/store.js';
import { openStore } from '../../src/store/db.js';
import { insertTemplate } from '../../src/templates/store.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { call, closeAgent, load, type BenchResult, type LoadResult } from './load.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const DURATION_MS = 10_000;
const VARIABLES = ['firstName', 'lastName', 'company', 'plan', 'city', 'orderId', 'total', 'currency', 'item', 'supportEmail'];

/** About 5 KB of HTML using each of the 10 variables. */
function templateBody(): string {
  const row = VARIABLES.map((v) => `<td style="padding:4px;font-family:Arial">{{${v}}}</td>`).join('');
  const paragraph = '<p style="margin:0 0 12px">Thank you for your order. Your receipt and the details of your subscription follow below.</p>';
  return `<html><body><h1>Hello {{firstName}}</h1>${paragraph.repeat(36)}<table><tr>${row}</tr></table><a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>`;
}

/** The sender domain and the template go straight into the store: the bench measures sending, not setup. */
async function seed(d: TestDaemon, body: string): Promise<string> {
  await d.stop();
  const db = openStore(join(d.dataDir, 'store'));
  const now = Date.now();
  const templateId = randomUUID();
  const domainId = randomUUID();
  insertDomain(db, {
    id: domainId,
    projectId: d.project.id,
    domain: 'bench.test',
    status: 'verified',
    verifiedWithoutDns: false,
    checks: { dkim: true },
    failureReason: null,
    lastCheckedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  insertKey(db, domainId, await generateRsaKey(now), 'active', now);
  insertTemplate(db, {
    id: templateId,
    projectId: d.project.id,
    name: 'receipt',
    description: null,
    subject: 'Your order {{orderId}}, {{firstName}}',
    body,
    from: 'orders@bench.test',
    fromName: 'Bench Shop',
    replyTo: null,
    type: 'TRANSACTIONAL',
    createdAt: now,
    updatedAt: now,
  });
  db.close();
  await d.restart();
  return templateId;
}

/** One recipient per request, 20 clients; the recipients' domain delivers to a loopback SMTP sink. */
/** A DNS server that never answers: deliveries wait on their lookups, so the API runs alone. */
async function silentDns(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise((r) => socket.close(() => r())) };
}

async function measure(hold: boolean, body: string): Promise<LoadResult & { delivered: number }> {
  const dns = await startDnsServer();
  const silent = await silentDns();
  const sink = await startSmtpSink();
  dns.set('customers.test', 'MX', [{ exchange: 'mx.customers.test', priority: 10 }]);
  dns.set('mx.customers.test', 'A', ['127.0.0.1']);
  const profile = process.env.BENCH_PROFILE;
  const d = await startTestDaemon({
    config: { rateLimit: { perMinute: 0 }, log: { level: 'error' }, dns: { servers: [hold ? silent.address : dns.address] }, delivery: { port: sink.port } },
    ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
  });
  try {
    const templateId = await seed(d, body);
    const key = d.project.secretKey;
    const result = await load(CLIENTS, DURATION_MS, async (i) => {
      const r = await call(d.url, 'POST', '/v1/send', key, {
        to: `customer${i % 10_000}@customers.test`,
        template: templateId,
        data: Object.fromEntries(VARIABLES.map((v) => [v, `${v}-${i % 97}`])),
      });
      return r.status === 200;
    });
    return { ...result, delivered: sink.messages.length };
  } finally {
    closeAgent();
    await d.dispose();
    await sink.close();
    await dns.close();
    await silent.close();
  }
}

/** POST /v1/send with a TRANSACTIONAL template of 10 variables and a 5 KB body. */
export async function run(): Promise<BenchResult> {
  const body = templateBody();
  // Deliveries stuck on a DNS server that never answers: the acceptance path alone.
  const api = await measure(true, body);
  // Deliveries running beside the API (DKIM signing, SMTP to the sink), as in production.
  const full = await measure(false, body);
  return {
    name: 'send',
    figures: {
      'template body bytes': Buffer.byteLength(body),
      [`sends/s (${CLIENTS} clients, delivery held)`]: api.perSecond,
      'p50 ms (delivery held)': api.p50Ms,
      'p99 ms (delivery held)': api.p99Ms,
      'errors (delivery held)': api.errors,
      'load generator CPU % of a core (delivery held)': api.clientCpuPercent,
      [`sends/s (${CLIENTS} clients, delivering)`]: full.perSecond,
      'p50 ms (delivering)': full.p50Ms,
      'p99 ms (delivering)': full.p99Ms,
      'errors (delivering)': full.errors,
      'delivered to the sink during the run': full.delivered,
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
