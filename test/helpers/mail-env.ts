import * as assert from 'uvu/assert';
import { startTestDaemon, type DaemonOptions, type Keys, type TestDaemon } from './daemon.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { verifyDomain, type RegisteredDomain } from './domains.js';
import { startSmtpSink, type SinkOptions, type SmtpSink } from './smtp-sink.js';

export const ADMIN = 'test-admin-token-0123456789abcdef';

export interface MailEnv {
  daemon: TestDaemon;
  dns: TestDnsServer;
  sink: SmtpSink;
  /** Points `domain`'s MX at the sink (through the loopback DNS). */
  routeToSink(domain: string): void;
  /** Registers `domain` for the project (default: the daemon's) and publishes its records so it verifies. */
  verifySender(domain: string, project?: Keys): Promise<RegisteredDomain>;
  /** Moves the daemon's clock forward (test hook); answers its time after the move (ms since the epoch). */
  advance(ms: number): Promise<number>;
  /**
   * Waits until the daemon's job runner is idle (nothing runs, nothing is due now; test hook): what
   * "nothing more happens" means, instead of a sleep. Fails naming what still ran.
   */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Polls `check` until it answers a truthy value; bounded, so a broken flow fails instead of hanging. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 8000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** A daemon wired to a loopback DNS server and SMTP sink: real protocols end to end. */
export async function startMailEnv(
  opts: {
    daemon?: DaemonOptions;
    sink?: SinkOptions;
    config?: Record<string, unknown>;
    /** deliver through the sink as a relay (with its auth) */
    relay?: boolean;
    /** recipient domains whose MX is the sink */
    sinkDomains?: string[];
    /** sender domains registered and verified for the daemon's project */
    senders?: string[];
  } = {},
): Promise<MailEnv> {
  const dns = await startDnsServer();
  const sink = await startSmtpSink(opts.sink);
  const daemon = await startTestDaemon({
    ...opts.daemon,
    config: {
      dns: { servers: [dns.address] },
      rateLimit: { perMinute: 0 },
      adminToken: ADMIN,
      testHooks: true,
      ...opts.config,
      delivery: {
        port: sink.port,
        ...(opts.relay
          ? { mode: 'relay', relay: `smtp://${opts.sink?.auth ? `${opts.sink.auth.user}:${opts.sink.auth.pass}@` : ''}127.0.0.1:${sink.port}` }
          : {}),
        ...(opts.config?.delivery as object | undefined),
      },
    },
  }).catch(async (err: unknown) => {
    // A daemon that failed to start must not leave the servers holding the test run open.
    await Promise.all([sink.close(), dns.close()]);
    throw err;
  });
  const env: MailEnv = {
    daemon,
    dns,
    sink,
    routeToSink(domain) {
      dns.set(domain, 'MX', [{ exchange: `mx.${domain}`, priority: 10 }]);
      dns.set(`mx.${domain}`, 'A', ['127.0.0.1']);
    },
    verifySender: (domain, project = daemon.project) => verifyDomain(daemon, dns, domain, project.secretKey),
    async idle(timeoutMs = 30_000) {
      const r = await daemon.request('POST', '/_test/idle', { timeoutMs }, { key: ADMIN });
      assert.is(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.idle, `waited ${timeoutMs} ms for the job runner to be idle; still running: ${JSON.stringify(r.body.running)}, a job due: ${r.body.due}`);
    },
    async advance(ms) {
      const r = await daemon.request('POST', '/_test/clock', { advanceMs: ms }, { key: ADMIN });
      assert.is(r.status, 200);
      return Date.parse(r.body.now as string);
    },
    async close() {
      await daemon.dispose();
      await sink.close();
      await dns.close();
    },
  };
  for (const domain of opts.sinkDomains ?? []) env.routeToSink(domain);
  for (const domain of opts.senders ?? []) await env.verifySender(domain);
  return env;
}

/** The events of one name (newest first) through the API. */
export async function eventsNamed(daemon: TestDaemon, name: string, key = daemon.project.secretKey): Promise<any[]> {
  const r = await daemon.request('GET', `/events?name=${encodeURIComponent(name)}&limit=500`, undefined, { key });
  return r.body.data;
}
