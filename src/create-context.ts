import { createBus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Ctx } from './context.js';
import { Fanouts } from './outbound/fanouts.js';
import { createDns, type Dns } from './dns/resolver.js';
import { createAdmission } from './http/admission.js';
import { JobQueue } from './jobs/queue.js';
import type { Logger } from './log.js';
import { createMailThreads } from './outbound/dkim/threads.js';
import { storeFile, type Db } from './store/db.js';
import { startReader } from './store/reader.js';
import { createComposeThreads } from './threads/compose-threads.js';
import { createUsages } from './usage/usages.js';
import { createMetrics } from './metrics/metrics.js';
import { createActivitySources } from './activity/sources.js';

export interface OwnedContext extends Ctx {
  /** Stops what the context started (its threads); the store stays open. */
  close(): Promise<void>;
}

/** The one place a context is built: the daemon's, and the in-process tests'. */
/** `reader`: start the reader threads on the store of `config.dataDir` (the daemon does; tools and tests read inline). */
export function createContext(parts: { db: Db; clock: Clock; config: Config; log: Logger; dns?: Dns; reader?: boolean }): OwnedContext {
  const { db, clock, config, log } = parts;
  const mailThreads = createMailThreads();
  const threads = createComposeThreads(config.threads.heavyHeapMb, (reason, tasks) => log.error('worker thread ended', { reason, tasks }));
  const reader = parts.reader ? startReader(storeFile(config.dataDir), config.reads.threads) : undefined;
  return {
    db,
    clock,
    config,
    log,
    bus: createBus(db, clock, log),
    jobs: new JobQueue(db, clock),
    dns: parts.dns ?? createDns(config.dns.servers),
    mailThreads,
    threads,
    usage: createUsages(),
    metrics: createMetrics(),
    activity: createActivitySources(),
    admission: createAdmission(clock, config.rateLimit.perMinute),
    fanouts: new Fanouts(),
    ...(reader ? { reader } : {}),
    close: async () => {
      await Promise.all([mailThreads.close(), threads.close(), reader?.stop()]);
    },
  };
}
