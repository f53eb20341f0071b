import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComposeInput } from '../compose.js';
import type { StoredComposition } from './stored.js';

export interface Composer {
  compose(input: ComposeInput): Promise<StoredComposition>;
  close(): Promise<void>;
}

type Reply = { id: number; bytes: ArrayBuffer; deflated: boolean; size: number; messageId: string } | { id: number; error: string };

/**
 * Composes MIME messages on worker threads (one per spare core, at least one), round robin.
 * The threads start with the first message: a daemon that never sends pays nothing for them.
 */
export function createComposer(threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): Composer {
  const pending = new Map<number, { worker: Worker; resolve: (m: StoredComposition) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let workers: Worker[] = [];
  const spawn = () => {
    const worker = new Worker(new URL('./compose-worker.js', import.meta.url));
    worker.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve({ message: { bytes: Buffer.from(reply.bytes), deflated: reply.deflated }, size: reply.size, messageId: reply.messageId });
    });
    // A thread that died fails its own messages and leaves the pool; the next message refills it.
    worker.on('error', (err) => {
      workers = workers.filter((w) => w !== worker);
      for (const [id, waiting] of pending) {
        if (waiting.worker !== worker) continue;
        pending.delete(id);
        waiting.reject(err);
      }
    });
    return worker;
  };
  return {
    compose: (input) =>
      new Promise((resolve, reject) => {
        if (workers.length === 0) workers = Array.from({ length: threads }, spawn);
        const id = nextId++;
        const worker = workers[id % workers.length]!;
        pending.set(id, { worker, resolve, reject });
        worker.postMessage({ id, input });
      }),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
