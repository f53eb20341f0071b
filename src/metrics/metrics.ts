import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Lane } from '../jobs/types.js';
import { postmillVersion } from '../runtime/version.js';

/** Destination domains counted one by one; more are counted in the totals only (bounded memory). */
const MAX_DOMAINS = 10_000;
/** Domains exported with their own series, the busiest first. */
export const TOP_DOMAINS = 20;

/** What the daemon counts as it goes; scrape-time gauges are added by observeDaemon. */
export interface Metrics {
  readonly registry: Registry;
  /** Runs `read` at the start of every scrape (one read of the store serves several gauges). */
  beforeScrape(read: () => Promise<void>): void;
  /** The Prometheus text of every metric. */
  scrape(): Promise<string>;
  /** One HTTP request, by its route template (not the raw path: bounded labels). */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One delivery attempt's outcome (delivered, bounced, deferred) to `recipient`. */
  delivery(outcome: string, recipient: string): void;
  /** One delivery handed to the engine (waiting for a place at its destination, or in its SMTP session); the answer ends it. */
  inDelivery(lane: Lane): () => void;
  /** One inbound message by its class (bounce, complaint, auto-reply, received). */
  inbound(kind: string): void;
}

/** Counters and histograms of one daemon, in a registry of its own (no process-global registry). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'postmill_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'postmill_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });
  const deliveries = new Counter({ name: 'postmill_deliveries_total', help: 'Delivery attempts by outcome', labelNames: ['outcome'], registers });
  const inProgress = new Gauge({
    name: 'postmill_deliveries_in_progress',
    help: 'Deliveries handed to the engine and not finished, by lane: waiting for a place at their destination or in an SMTP session',
    labelNames: ['lane'],
    registers,
  });
  const byDomain = new Map<string, Map<string, number>>();
  new Counter({
    name: 'postmill_deliveries_by_domain_total',
    help: `Delivery attempts by outcome for the ${TOP_DOMAINS} busiest destination domains`,
    labelNames: ['outcome', 'domain'],
    registers,
    collect() {
      const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
      const top = [...byDomain].sort(([, a], [, b]) => total(b) - total(a)).slice(0, TOP_DOMAINS);
      this.reset();
      for (const [domain, counts] of top) for (const [outcome, n] of counts) this.inc({ outcome, domain }, n);
    },
  });
  const inbound = new Counter({ name: 'postmill_inbound_messages_total', help: 'Inbound messages by class', labelNames: ['class'], registers });
  // The usual build-info gauge: constant 1, the version as a label (joins onto other series in queries).
  new Gauge({ name: 'postmill_build_info', help: 'The running version of Postmill (always 1)', labelNames: ['version'], registers }).set({ version: postmillVersion() }, 1);
  const reads: (() => Promise<void>)[] = [];
  return {
    registry,
    beforeScrape: (read) => void reads.push(read),
    scrape: async () => {
      await Promise.all(reads.map((read) => read()));
      return registry.metrics();
    },
    request(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    delivery(outcome, recipient) {
      deliveries.inc({ outcome });
      const domain = recipient.slice(recipient.lastIndexOf('@') + 1).toLowerCase();
      let counts = byDomain.get(domain);
      if (!counts) {
        if (byDomain.size >= MAX_DOMAINS) return;
        byDomain.set(domain, (counts = new Map()));
      }
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    },
    inDelivery(lane) {
      inProgress.inc({ lane });
      return () => inProgress.dec({ lane });
    },
    inbound(kind) {
      inbound.inc({ class: kind });
    },
  };
}
