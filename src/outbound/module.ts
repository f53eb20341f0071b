// Outbound as the daemon runs it: what hands messages over (the engine to MX hosts or the relay, or
// capture mode's mailbox), and the delivery job that feeds it from the queue. The composition root
// gives it what it uses.
import type { Core } from '../core.js';
import { cachingDns } from '../dns/cache.js';
import type { Dns } from '../dns/resolver.js';
import type { Metrics } from '../metrics/metrics.js';
import type { JobRunner } from '../jobs/runner.js';
import { deliveryJob } from './deliver-job.js';
import type { MailThreads } from './dkim/threads.js';
import { createDelivery, type Delivery } from './engine/deliver.js';
import { captureDelivery } from './capture.js';
import type { Fanouts } from './fanouts.js';
import { DELIVER_JOB } from './queue.js';
import { SlidingWindow } from '../limits/sliding-window.js';
import { DeliverySummary } from './summary.js';
import { providerRules } from './shaping/providers.js';
import { tlsPolicies } from './tls-policy/setup.js';

export interface OutboundTools {
  /** What hands messages over (outboundDelivery, as the composition root wraps it). */
  delivery: Delivery;
  signer: MailThreads;
  fanouts: Fanouts;
  metrics: Metrics;
}

/** What `delivery.mode` delivers through: the engine to MX hosts or to the relay, or capture mode's mailbox. */
export function outboundDelivery(core: Core, dns: Dns): Delivery {
  const { config, clock } = core;
  const { mode } = config.delivery;
  if (mode === 'capture') return captureDelivery(core);
  const cached = cachingDns(dns, clock);
  return createDelivery({
    dns: cached,
    hostname: config.hostname,
    port: config.delivery.port,
    mode,
    ...(config.delivery.relay ? { relay: config.delivery.relay } : {}),
    perDomainConcurrency: config.delivery.perDomainConcurrency,
    // one session per place: a delivery that holds one of its domain's places never queues for a session
    sessionsPerHost: config.delivery.perDomainConcurrency,
    providers: providerRules(config.delivery.providers),
    clock,
    ...(mode === 'mx' ? { tls: tlsPolicies(core, cached) } : {}),
  });
}

/** The delivery job fed to the job runner; `close` ends the delivery's sessions once the runner stopped. */
export function outboundModule(core: Core, tools: OutboundTools): { jobs(runner: JobRunner): void; close(): Promise<void> } {
  const { config, clock } = core;
  const { delivery } = tools;
  const summary = new DeliverySummary(core.log);
  return {
    jobs: (runner) =>
      runner.register(
        DELIVER_JOB,
        deliveryJob(core, {
          ...tools,
          summary,
          throttle: config.delivery.throttlePerMinute === 0 ? null : new SlidingWindow(clock, config.delivery.throttlePerMinute, 60_000),
          concurrency: config.delivery.concurrency,
          maxAgeMs: config.delivery.maxAge * 1000,
          bulkPerSecond: config.delivery.bulkPerSecond,
          warmup: config.delivery.warmup,
        }),
      ),
    close: async () => {
      await delivery.close();
      summary.stop();
    },
  };
}
