import type { ActivitySources } from './activity/sources.js';
import type { Bus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Dns } from './dns/resolver.js';
import type { Fanouts } from './outbound/fanouts.js';
import type { Admission } from './http/admission.js';
import type { JobQueue } from './jobs/queue.js';
import type { Logger } from './log.js';
import type { MailThreads } from './outbound/dkim/threads.js';
import type { ComposeThreads } from './threads/compose-threads.js';
import type { Metrics } from './metrics/metrics.js';
import type { Db } from './store/db.js';
import type { Reader } from './store/reader.js';
import type { Usages } from './usage/usages.js';

/** What services work with: the store, the event bus, the job queue, time, DNS and configuration. No HTTP. */
export interface Ctx {
  db: Db;
  bus: Bus;
  jobs: JobQueue;
  clock: Clock;
  config: Config;
  log: Logger;
  /** The one resolver (`dns.servers`) for MX, TXT, A, NS lookups. */
  dns: Dns;
  /** DKIM signing off the main thread. */
  mailThreads: MailThreads;
  /** Message composition (and heavy request parsing) off the main thread. */
  threads: ComposeThreads;
  /** Where fields, event names and templates are referenced (filled by the modules). */
  usage: Usages;
  /** Counters for GET /metrics (requests, deliveries, inbound mail). */
  metrics: Metrics;
  /** The sources of the activity feed (filled by the modules). */
  activity: ActivitySources;
  /** Campaign fan-outs in progress: bulk delivery yields the CPU to them. */
  fanouts: Fanouts;
  /** The request rate and heavy-request turns of each project, shared by HTTP and SMTP submission. */
  admission: Admission;
  /** Reads whose cost grows with a project's data, on threads of their own under time budgets; the daemon starts them, tools and tests without them read inline (`readerOf`). */
  reader?: Reader;
}
