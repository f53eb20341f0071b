import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpsServer, type TestHttpsServer } from './https-server.js';
import type { DaemonOptions } from './daemon.js';
import { startMailEnv, type MailEnv } from './mail-env.js';
import { createTestCa, type Pem, type TestCa } from './test-ca.js';

/** A mail environment whose peers speak TLS with certificates of a CA the daemon trusts (delivery.tls.caFile). */
export interface TlsEnv extends MailEnv {
  ca: TestCa;
  https: TestHttpsServer;
  /** Publishes an MTA-STS policy for `domain`: the `_mta-sts` TXT with `id`, and the policy file over HTTPS. */
  publishPolicy(domain: string, id: string, policy: string): Promise<void>;
  /** Points `domain`'s MX at `mxHost` (the sink) and gives the sink `pem` as that host's certificate. */
  routeWithCertificate(domain: string, mxHost: string, pem: Pem | null): Promise<void>;
  close(): Promise<void>;
}

export const policyText = (mode: string, mx: string[], maxAge = 86400) => ['version: STSv1', `mode: ${mode}`, ...mx.map((m) => `mx: ${m}`), `max_age: ${maxAge}`, ''].join('\r\n');

export async function startTlsEnv(config: Record<string, unknown> = {}, daemon: DaemonOptions = {}): Promise<TlsEnv> {
  const ca = await createTestCa();
  const dir = mkdtempSync(join(tmpdir(), 'postmill-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const https = await startHttpsServer(await ca.issue(['fallback.invalid']));
  const byName: Record<string, Pem> = {};
  const delivery = (config.delivery ?? {}) as Record<string, unknown>;
  const env = await startMailEnv({
    daemon,
    sink: { tls: true, certificates: { byName } },
    senders: ['sender.test'],
    config: {
      ...config,
      webhooks: { allowPrivate: true },
      delivery: { ...delivery, maxAge: 6 * 3600, tls: { caFile, ...(delivery.tls as object | undefined) } },
    },
  });
  return {
    ...env,
    ca,
    https,
    async publishPolicy(domain, id, policy) {
      env.dns.set(`_mta-sts.${domain}`, 'TXT', [`v=STSv1; id=${id}`]);
      env.dns.set(`mta-sts.${domain}`, 'A', [https.address]);
      https.certificate(`mta-sts.${domain}`, await ca.issue([`mta-sts.${domain}`]));
      https.serve(`mta-sts.${domain}`, '/.well-known/mta-sts.txt', { status: 200, body: policy });
    },
    async routeWithCertificate(domain, mxHost, pem) {
      env.dns.set(domain, 'MX', [{ exchange: mxHost, priority: 10 }]);
      env.dns.set(mxHost, 'A', ['127.0.0.1']);
      if (pem) byName[mxHost] = pem;
    },
    async close() {
      await env.close();
      await https.close();
    },
  };
}
