import { startTestDaemon, type DaemonOptions, type Keys, type TestDaemon } from './daemon.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { verifyDomain, type RegisteredDomain } from './domains.js';
import { startSmtpSink, type SinkOptions, type SmtpSink } from './smtp-sink.js';
import { advance, idle, TEST_HOOKS } from './test-hooks.js';

export { eventually } from './eventually.js';
export { ADMIN } from './test-hooks.js';

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
      ...TEST_HOOKS,
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
    idle: (timeoutMs) => idle(daemon, timeoutMs),
    advance: (ms) => advance(daemon, ms),
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
