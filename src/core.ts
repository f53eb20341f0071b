import type { Bus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { JobQueue } from './jobs/queue.js';
import type { Logger } from './log.js';
import type { Db } from './store/db.js';
import type { Reader } from './store/reader.js';

/**
 * What every part of the daemon works with: the store (its connection and its reader threads), the
 * event bus, the durable job queue, time, configuration and the log. Anything else (DNS, threads,
 * metrics, the usage registries, admission) is handed explicitly to what uses it, in the
 * composition root (src/modules.ts, src/daemon.ts).
 */
export interface Core {
  db: Db;
  /** Reads whose cost grows with a project's data, off the event loop and under a time budget. */
  reader: Reader;
  bus: Bus;
  jobs: JobQueue;
  clock: Clock;
  config: Config;
  log: Logger;
}
