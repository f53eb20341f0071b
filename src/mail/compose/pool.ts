import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComposedMessage, ComposeInput } from '../compose.js';

export interface Composer {
  compose(input: ComposeInput): Promise<ComposedMessage>;
  close(): Promise<void>;
}

type Reply = { id: number; raw: ArrayBuffer; messageId: string } | { id: number; error: string };

/** Composes MIME messages on worker threads (one per spare core, at least one), round robin. */
export function createComposer(threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): Composer {
  const pending = new Map<number, { resolve: (m: ComposedMessage) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(new URL('./compose-worker.js', import.meta.url));
    worker.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve({ raw: Buffer.from(reply.raw), messageId: reply.messageId });
    });
    worker.on('error', (err) => {
      for (const [, waiting] of pending) waiting.reject(err);
      pending.clear();
    });
    return worker;
  });
  return {
    compose: (input) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        workers[id % workers.length]!.postMessage({ id, input });
      }),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
