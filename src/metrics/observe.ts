import { statSync } from 'node:fs';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import type { Core } from '../core.js';
import { storeFile } from '../store/db.js';
import type { Metrics } from './metrics.js';
import { jobGroups, type JobGroup } from './store.js';
import { allSenderCounts, type SenderCount } from '../domains/health-store.js';
import { HEALTH_WINDOWS, windowHealth, type WindowHealth } from '../domains/health.js';

/** Job kinds of the event reactors (segment tracking, workflow triggers): their queue age is the reactor lag. */
const REACTOR_PREFIX = 'reactor.';

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    // a file not there (no WAL between checkpoints) takes no room
    return 0;
  }
};

const DAY_MS = 86_400_000;

/** Each sender domain's figures over each health window. */
function sendersHealth(rows: (SenderCount & { domain: string })[], today: number): { domain: string; window: WindowHealth }[] {
  const byDomain = new Map<string, SenderCount[]>();
  for (const row of rows) {
    const counts = byDomain.get(row.domain);
    if (counts) counts.push(row);
    else byDomain.set(row.domain, [row]);
  }
  return [...byDomain].flatMap(([domain, counts]) => HEALTH_WINDOWS.map((days) => ({ domain, window: windowHealth(counts, today, days) })));
}

/** Gauges read when Prometheus scrapes: the job queue, reactor lag, sender health, store and WAL size, and the process's own. */
export function observeDaemon(core: Core, metrics: Metrics): void {
  const registers = [metrics.registry];
  collectDefaultMetrics({ register: metrics.registry });
  const ageSeconds = (dueAt: number | null, now: number) => (dueAt === null ? 0 : Math.max(0, (now - dueAt) / 1000));
  // One read of the jobs table per scrape serves the three job gauges.
  let jobs = { at: 0, rows: [] as JobGroup[] };
  // the reads of the scrape take their turns as a project of their own would
  const read = { projectId: 'metrics scrape', budgetMs: core.config.reads.requestBudgetMs };
  // and one read of the sender counts serves the sender health gauges
  let senders: { domain: string; window: WindowHealth }[] = [];
  metrics.beforeScrape(async () => {
    const now = core.clock.now();
    jobs = { at: now, rows: await jobGroups(core.reader, read, now) };
    senders = sendersHealth(await allSenderCounts(core.reader, read, Math.floor(now / DAY_MS) - Math.max(...HEALTH_WINDOWS) + 1), Math.floor(now / DAY_MS));
  });
  const senderGauge = (name: string, help: string, value: (w: WindowHealth) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['domain', 'window'],
      registers,
      collect() {
        this.reset();
        for (const { domain, window } of senders) {
          const v = value(window);
          if (v !== null) this.set({ domain, window: `${window.days}d` }, v);
        }
      },
    });
  senderGauge('postmill_sender_sent', 'Emails sent per sender domain over the last 7 and 30 days (UTC days)', (w) => w.sent);
  senderGauge('postmill_sender_bounce_rate', 'Permanent bounces per email sent, per sender domain, over the last 7 and 30 days', (w) => w.bounceRate);
  senderGauge('postmill_sender_complaint_rate', 'Spam complaints (ARF) per email sent, per sender domain, over the last 7 and 30 days; providers require under 0.003', (w) => w.complaintRate);
  new Gauge({
    name: 'postmill_jobs',
    help: 'Jobs by kind, lane and status (queued, running, failed)',
    labelNames: ['kind', 'lane', 'status'],
    registers,
    collect() {
      this.reset();
      for (const g of jobs.rows) this.set({ kind: g.kind, lane: g.lane, status: g.status }, g.count);
    },
  });
  new Gauge({
    name: 'postmill_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due queued job of each kind and lane has waited',
    labelNames: ['kind', 'lane'],
    registers,
    collect() {
      this.reset();
      const { at, rows } = jobs;
      for (const g of rows) if (g.status === 'queued') this.set({ kind: g.kind, lane: g.lane }, ageSeconds(g.oldestDueAt, at));
    },
  });
  new Gauge({
    name: 'postmill_reactor_lag_seconds',
    help: `How long the oldest due job of the event reactors (kinds ${REACTOR_PREFIX}*) has waited`,
    registers,
    collect() {
      const { at, rows } = jobs;
      const due = rows.filter((g) => g.kind.startsWith(REACTOR_PREFIX) && g.oldestDueAt !== null).map((g) => g.oldestDueAt!);
      this.set(due.length > 0 ? ageSeconds(Math.min(...due), at) : 0);
    },
  });
  const file = storeFile(core.config.dataDir);
  new Gauge({
    name: 'postmill_store_bytes',
    help: 'Size of the SQLite store file',
    registers,
    collect() {
      this.set(sizeOf(file));
    },
  });
  new Gauge({
    name: 'postmill_store_wal_bytes',
    help: 'Size of the SQLite write-ahead log',
    registers,
    collect() {
      this.set(sizeOf(`${file}-wal`));
    },
  });
}
