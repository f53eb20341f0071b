import PQueue from 'p-queue';

/** Runs tasks with at most `concurrency` at a time per key (here: per destination domain). */
export interface KeyedLimiter {
  /** Waiting tasks of a higher `priority` start first (default 0); equal ones in order. */
  run<T>(key: string, task: () => Promise<T>, priority?: number): Promise<T>;
}

export function createKeyedLimiter(concurrency: number): KeyedLimiter {
  const queues = new Map<string, PQueue>();

  function queueFor(key: string): PQueue {
    const existing = queues.get(key);
    if (existing) return existing;
    const queue = new PQueue({ concurrency });
    // Forget idle queues so that every domain ever seen does not stay in memory.
    queue.on('idle', () => {
      if (queues.get(key) === queue) queues.delete(key);
    });
    queues.set(key, queue);
    return queue;
  }

  return {
    run: (key, task, priority = 0) => queueFor(key).add(task, { priority }),
  };
}
