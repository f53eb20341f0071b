import type { Worker } from 'node:worker_threads';
import { startWorker } from '../runtime/assets.js';
import type { Db } from './db.js';
import type { ReadAnswer, ReadRequest } from './reader-worker.js';
import { stopWorker } from './stop-worker.js';

/** Long read-only statements, answered off the main thread (committed data, as any read outside a transaction sees). */
export interface Reader {
  /** The first row. */
  get<T>(text: string, params: unknown[]): Promise<T | undefined>;
  /** Every row's first column. */
  column<T>(text: string, params: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * A worker thread with its own read-only connection to the store file, started with the first read:
 * a daemon that never asks one (a mail relay, a drain) does not pay for its thread and page cache.
 */
export function startReader(file: string): Reader {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  /** Why the thread is gone: what is waiting fails with it, and so does every later read (never left unanswered). */
  let failure: Error | null = null;
  const fail = (err: Error) => {
    failure ??= err;
    for (const caller of waiting.values()) caller.reject(failure);
    waiting.clear();
  };
  let worker: Worker | null = null;
  const started = (): Worker => {
    if (worker) return worker;
    worker = startWorker('reader', { workerData: { file } });
    worker.on('message', (answer: ReadAnswer) => {
      const caller = waiting.get(answer.id);
      waiting.delete(answer.id);
      if ('error' in answer) caller?.reject(new Error(answer.error));
      else caller?.resolve(answer.result);
    });
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the reader thread stopped')));
    return worker;
  };
  const ask = (text: string, params: unknown[], column: boolean) =>
    new Promise<unknown>((resolve, reject) => {
      if (failure) return reject(failure);
      const thread = started();
      const id = next++;
      waiting.set(id, { resolve, reject });
      thread.postMessage({ id, text, params, column } satisfies ReadRequest);
    });
  return {
    get: (text, params) => ask(text, params, false) as Promise<never>,
    column: (text, params) => ask(text, params, true) as Promise<never>,
    stop: async () => {
      // reads after this fail, rather than start a thread nothing would stop
      failure ??= new Error('the reader thread stopped');
      if (worker) await stopWorker(worker);
    },
  };
}

/** The same answers from the connection itself, on the calling thread (tools and tests that run no daemon). */
export function inlineReader(db: Db): Reader {
  return {
    get: async (text, params) => db.prepare(text).get(...params) as never,
    column: async (text, params) => db.prepare(text).pluck().all(...params) as never,
    stop: async () => {},
  };
}

/** The context's reader, or reads on the calling thread where none was started. */
export const readerOf = (ctx: { db: Db; reader?: Reader }): Reader => ctx.reader ?? inlineReader(ctx.db);
