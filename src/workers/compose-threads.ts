import { availableParallelism } from 'node:os';
import { createThreadPool, type PoolOptions, type Pools } from '../threads/pool.js';
import type { WorkerOps } from './compose.js';

/**
 * Threads that compose messages. `compose` serves the steady stream of ordinary messages; `heavy`
 * is one thread of its own for sends whose size takes seconds (a 40 MB body), so they never hold
 * up the others.
 */
export interface ComposeThreads extends Pools<WorkerOps> {
  close(): Promise<void>;
}

/**
 * An ordinary compose task (a send, a chunk of a campaign's recipients) keeps well under a MB alive:
 * a small young generation is collected often and cheaply instead of growing to tens of MB per thread.
 */
const COMPOSE_HEAP = { maxYoungGenerationSizeMb: 4 };

/**
 * `heavyHeapMb` (threads.heavyHeapMb) bounds the heavy thread's old generation: V8 collects as it
 * goes instead of growing by hundreds of MB, and what the request limits accept must fit in it
 * (the measures are in docs/performance.md). The heavy thread takes one task at a time: a task
 * that exhausts it fails alone, and those waiting go to the thread started in its place.
 */
export function createComposeThreads(heavyHeapMb: number, onDeath: PoolOptions['onDeath'], threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): ComposeThreads {
  const compose = createThreadPool<WorkerOps>('compose', threads, { resourceLimits: COMPOSE_HEAP, onDeath });
  const heavy = createThreadPool<WorkerOps>('compose', 1, { resourceLimits: { maxOldGenerationSizeMb: heavyHeapMb, maxYoungGenerationSizeMb: 8 }, tasksPerThread: 1, onDeath });
  return {
    compose,
    heavy,
    close: async () => {
      await Promise.all([compose.close(), heavy.close()]);
    },
  };
}
