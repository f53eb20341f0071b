// A small pool of worker threads that answer typed operations: the CPU-heavy pure steps run here
// so the main thread keeps answering.
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/assets.js';
import type { WorkerScript } from '../runtime/worker-scripts.js';
import { ApiError } from '../errors.js';

/** The operations a worker script serves: each op's input and output. */
export type OpMap = Record<string, { input: unknown; output: unknown }>;

export interface ThreadRequest {
  id: number;
  op: string;
  input: unknown;
}

export type ThreadReply =
  | { id: number; ok: true; output: unknown }
  | { id: number; ok: false; error: string; detail?: unknown; apiError?: { status: number; code: string; extra: ApiError['extra'] } };

function failureOf(reply: Extract<ThreadReply, { ok: false }>): Error {
  if (reply.apiError) return new ApiError(reply.apiError.status, reply.apiError.code, reply.error, reply.apiError.extra);
  return reply.detail === undefined ? new Error(reply.error) : new ThreadTaskError(reply.error, reply.detail);
}

/** A failure the worker reported with structured detail (for example the field errors of a validation). */
export class ThreadTaskError extends Error {
  constructor(
    message: string,
    readonly detail: unknown,
  ) {
    super(message);
  }
}

export interface ThreadPool<M extends OpMap> {
  run<K extends keyof M & string>(op: K, input: M[K]['input'], transfer?: readonly ArrayBuffer[]): Promise<M[K]['output']>;
  close(): Promise<void>;
}

/**
 * `size` threads of `script`, round robin. They start with the first task, so a daemon that never
 * needs them pays nothing; a thread that dies fails its own tasks and the next task replaces it.
 */
export function createThreadPool<M extends OpMap>(script: WorkerScript, size: number, resourceLimits?: ResourceLimits): ThreadPool<M> {
  const pending = new Map<number, { worker: Worker; resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let workers: Worker[] = [];
  const spawn = () => {
    const worker = startWorker(script, resourceLimits ? { resourceLimits } : {});
    worker.on('message', (reply: ThreadReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply.output);
      else waiting.reject(failureOf(reply));
    });
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
    run: (op, input, transfer = []) =>
      new Promise((resolve, reject) => {
        if (workers.length < size) workers.push(...Array.from({ length: size - workers.length }, spawn));
        const id = nextId++;
        const worker = workers[id % workers.length]!;
        pending.set(id, { worker, resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ id, op, input } satisfies ThreadRequest, transfer as ArrayBuffer[]);
      }),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
      workers = [];
    },
  };
}
