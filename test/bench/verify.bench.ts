import { pathToFileURL } from 'node:url';
import { startTestDaemon } from '../helpers/daemon.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { call, closeAgent, load, type BenchResult } from './load.js';

const DOMAINS = 200;
const ADDRESSES = 1000;
const CLIENTS = 20;
const CACHED_MS = 5000;

/** POST /v1/verify of 1,000 addresses over 200 domains served by a loopback DNS server: the first pass asks DNS, later ones are cached. */
export async function run(): Promise<BenchResult> {
  const dns = await startDnsServer();
  for (let i = 0; i < DOMAINS; i++) {
    const name = `domain${i}.example`;
    dns.set(name, 'NS', [`ns1.${name}`]);
    dns.set(name, 'MX', [{ exchange: `mx.${name}`, priority: 10 }]);
    dns.set(name, 'A', ['192.0.2.10']);
  }
  const d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, log: { level: 'error' }, dns: { servers: [dns.address] } } });
  try {
    const addresses = Array.from({ length: ADDRESSES }, (_, i) => `user${i}+tag@domain${i % DOMAINS}.example`);
    const verify = async (i: number) => {
      const r = await call(d.url, 'POST', '/v1/verify', d.project.secretKey, { email: addresses[i % ADDRESSES] });
      return r.status === 200 && (JSON.parse(r.body) as { data: { valid: boolean } }).data.valid;
    };
    // the first pass: every address once, each domain asked of DNS once (NS, MX, A, AAAA)
    let next = 0;
    const cold = await load(CLIENTS, 60_000, () => verify(next++), () => next >= ADDRESSES);
    const cached = await load(CLIENTS, CACHED_MS, verify);
    return {
      name: 'verify',
      figures: {
        [`first pass, answers/s (${ADDRESSES} addresses, ${DOMAINS} domains, DNS asked)`]: cold.perSecond,
        'first pass p99 ms': cold.p99Ms,
        [`cached, answers/s (${CLIENTS} clients)`]: cached.perSecond,
        'cached p50 ms': cached.p50Ms,
        'cached p99 ms': cached.p99Ms,
        'cached / first pass': Math.round((cached.perSecond / Math.max(cold.perSecond, 1)) * 100) / 100,
        errors: cold.errors + cached.errors,
        'load generator CPU %': cached.clientCpuPercent,
      },
    };
  } finally {
    closeAgent();
    await d.dispose();
    await dns.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
