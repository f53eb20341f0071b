// The composition root's parts: the core every module works with, and each capability that the root
// hands to the modules that use it (src/modules.ts). Made once by the daemon, and by in-process tests.
import { createActivitySources, type ActivitySources } from './activity/sources.js';
import { createBus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Core } from './core.js';
import { createDns, type Dns } from './dns/resolver.js';
import { createAdmission, type Admission } from './limits/admission.js';
import { JobQueue } from './jobs/queue.js';
import type { Logger } from './log.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { createMailThreads, type MailThreads } from './outbound/dkim/threads.js';
import { Fanouts } from './outbound/fanouts.js';
import { storeFile, type Db } from './store/db.js';
import { inlineReader, startReader } from './store/reader.js';
import { createComposeThreads, type ComposeThreads } from './workers/compose-threads.js';
import { createUsages, type Usages } from './usage/usages.js';

export interface Assembly {
  core: Core;
  /** The one resolver (`dns.servers`) for MX, TXT, A, NS lookups. */
  dns: Dns;
  /** DKIM signing off the main thread. */
  signer: MailThreads;
  /** Message composition (and heavy request parsing) off the main thread. */
  threads: ComposeThreads;
  /** Where fields, event names, templates, segments and campaigns are referenced (filled by the modules). */
  usage: Usages;
  /** Counters for GET /metrics. */
  metrics: Metrics;
  /** The sources of the activity feed (filled by the modules). */
  activity: ActivitySources;
  /** Campaign fan-outs in progress: bulk delivery yields the CPU to them. */
  fanouts: Fanouts;
  /** The request rate and heavy-request turns of each project, shared by HTTP and SMTP submission. */
  admission: Admission;
  /** Stops the threads it started; the store stays open. */
  close(): Promise<void>;
}

/**
 * `readerThreads`: long reads on reader threads of the store of `config.dataDir` (the daemon);
 * without, they run on the calling thread (tools and in-process tests).
 */
export function assemble(parts: { db: Db; clock: Clock; config: Config; log: Logger; dns?: Dns; readerThreads?: boolean }): Assembly {
  const { db, clock, config, log } = parts;
  const signer = createMailThreads();
  const threads = createComposeThreads(config.threads.heavyHeapMb, (reason, tasks) => log.error('worker thread ended', { reason, tasks }));
  const reader = parts.readerThreads ? startReader(storeFile(config.dataDir), config.reads.threads) : inlineReader(db);
  return {
    core: { db, reader, clock, config, log, bus: createBus(db, clock, log), jobs: new JobQueue(db, clock) },
    dns: parts.dns ?? createDns(config.dns.servers),
    signer,
    threads,
    usage: createUsages(),
    metrics: createMetrics(),
    activity: createActivitySources(),
    fanouts: new Fanouts(),
    admission: createAdmission(clock, config.rateLimit.perMinute),
    close: async () => {
      await Promise.all([signer.close(), threads.close(), reader.stop()]);
    },
  };
}
