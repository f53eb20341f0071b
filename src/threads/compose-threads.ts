import { availableParallelism } from 'node:os';
import { createThreadPool, type ThreadPool } from './pool.js';
import type { WorkerOps } from './worker.js';

/**
 * Threads that compose messages. `compose` serves the steady stream of ordinary messages; `heavy`
 * is one thread of its own for sends whose size takes seconds (a 40 MB body), so they never hold
 * up the others.
 */
export interface ComposeThreads {
  compose: ThreadPool<WorkerOps>;
  heavy: ThreadPool<WorkerOps>;
  close(): Promise<void>;
}

/**
 * The heavy thread's heap: the largest request (parsed, personalised, composed) lives in well under
 * 64 MB of it; a bound keeps V8 collecting as it goes instead of letting the heap grow by hundreds of MB.
 */
const HEAVY_HEAP_MB = 128;

/**
 * An ordinary compose task (a send, a chunk of a campaign's recipients) keeps well under a MB alive:
 * a small young generation is collected often and cheaply instead of growing to tens of MB per thread.
 */
const COMPOSE_HEAP = { maxYoungGenerationSizeMb: 4 };

export function createComposeThreads(threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): ComposeThreads {
  const compose = createThreadPool<WorkerOps>('compose', threads, COMPOSE_HEAP);
  const heavy = createThreadPool<WorkerOps>('compose', 1, { maxOldGenerationSizeMb: HEAVY_HEAP_MB, maxYoungGenerationSizeMb: 8 });
  return {
    compose,
    heavy,
    close: async () => {
      await Promise.all([compose.close(), heavy.close()]);
    },
  };
}
