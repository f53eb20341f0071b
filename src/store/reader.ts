import type { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { queryTimeout } from '../errors.js';
import { FairGate } from '../limits/fair-gate.js';
import { startWorker } from '../runtime/assets.js';
import { budgetedRead, type ReadAnswer, type ReadMode, type ReadRequest } from './budget.js';
import type { Db } from './db.js';
import { stopWorker } from './stop-worker.js';

/** Whose read, and how long it may run. */
export interface ReadOptions {
  /** The project the statement reads (it scopes the query) and whose turn it takes. */
  projectId: string;
  /** The statement is stopped past this (422 QUERY_TIMEOUT): `reads.requestBudgetMs` or `reads.jobBudgetMs`. */
  budgetMs: number;
}

/**
 * Reads whose cost grows with a project's data, answered off the main thread (committed data, as
 * any read outside a transaction sees). Every statement calls budget() on the rows it visits
 * (store/budget.ts), so that it ends within its budget whatever it asks.
 */
export interface Reader {
  /** The first row. */
  get<T>(read: ReadOptions, text: string, params: unknown[]): Promise<T | undefined>;
  all<T>(read: ReadOptions, text: string, params: unknown[]): Promise<T[]>;
  /** Every row's first column. */
  column<T>(read: ReadOptions, text: string, params: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** Reads of one project in progress (one running, the others waiting); past that the project is told to retry (its backlog holds no one else up). */
const MAX_PER_PROJECT = 16;

function assertBudgeted(text: string): void {
  // a statement that never calls budget() could not be stopped: a mistake of the code, not of the input
  if (!text.includes('budget()')) throw new Error('a read must call budget() on the rows it visits');
}

function answerOf(answer: ReadAnswer, budgetMs: number): unknown {
  if ('result' in answer) return answer.result;
  if ('timeout' in answer) throw queryTimeout(budgetMs);
  throw new Error(answer.error);
}

/** One worker with its own read-only connection, started with the daemon (again by the next read after it died), one read at a time. */
class ReaderThread {
  private worker: Worker | null = null;
  private current: { resolve: (answer: ReadAnswer) => void; reject: (error: Error) => void } | null = null;

  constructor(private readonly file: string) {}

  /** Starts the thread before any read needs it: a thread's start and its connection's opening were the first request's cost. */
  start(): void {
    this.started();
  }

  run(request: ReadRequest): Promise<ReadAnswer> {
    const worker = this.started();
    return new Promise((resolve, reject) => {
      this.current = { resolve, reject };
      worker.postMessage(request);
    });
  }

  async stop(): Promise<void> {
    if (this.worker) await stopWorker(this.worker);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('reader', { workerData: { file: this.file } });
    const settle = (outcome: { answer: ReadAnswer } | { error: Error }) => {
      const caller = this.current;
      this.current = null;
      if ('answer' in outcome) caller?.resolve(outcome.answer);
      else caller?.reject(outcome.error);
    };
    // a thread that died fails the read it had (never left unanswered); the next read starts another
    const gone = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      settle({ error });
    };
    worker.on('message', (answer: ReadAnswer) => settle({ answer }));
    worker.on('error', gone);
    worker.on('exit', () => gone(new Error('the reader thread stopped')));
    return (this.worker = worker);
  }
}

/**
 * `threads` reader threads, each with its connection and page cache, behind a fair gate: at most
 * one read of a project runs at a time, and waiting projects take turns, so one project's heavy
 * reads never hold the others up for longer than one of its reads (itself bounded by its budget).
 */
export function startReader(file: string, threads: number): Reader {
  // one read of a project runs at a time: the rest of its MAX_PER_PROJECT wait their turn
  const gate = new FairGate({
    slots: threads,
    maxWaiting: Infinity,
    maxWaitingPerKey: MAX_PER_PROJECT - 1,
    refusal: {
      message: `${MAX_PER_PROJECT} long reads of this project are already in progress`,
      suggestion: 'Wait for the pages and counts already asked for before asking for more',
    },
  });
  const idle = Array.from({ length: threads }, () => new ReaderThread(file));
  const all = [...idle];
  for (const thread of all) thread.start();
  let stopped: Error | null = null;

  const ask = async (read: ReadOptions, text: string, params: unknown[], mode: ReadMode): Promise<never> => {
    assertBudgeted(text);
    if (stopped) throw stopped;
    const release = await gate.acquire(read.projectId);
    const thread = idle.pop()!;
    try {
      if (stopped) throw stopped;
      return answerOf(await thread.run({ text, params, mode, budgetMs: read.budgetMs }), read.budgetMs) as never;
    } finally {
      idle.push(thread);
      release();
    }
  };
  return {
    get: (read, text, params) => ask(read, text, params, 'get'),
    all: (read, text, params) => ask(read, text, params, 'all'),
    column: (read, text, params) => ask(read, text, params, 'column'),
    stop: async () => {
      // reads after this fail, rather than start a thread nothing would stop
      stopped ??= new Error('the reader threads stopped');
      await Promise.all(all.map((thread) => thread.stop()));
    },
  };
}

/** The same answers from the connection itself, on the calling thread (tools and tests that run no daemon). */
export function inlineReader(db: Db): Reader {
  const ask = async (read: ReadOptions, text: string, params: unknown[], mode: ReadMode): Promise<never> => {
    assertBudgeted(text);
    return answerOf(budgetedRead(db, { text, params, mode, budgetMs: read.budgetMs }), read.budgetMs) as never;
  };
  return {
    get: (read, text, params) => ask(read, text, params, 'get'),
    all: (read, text, params) => ask(read, text, params, 'all'),
    column: (read, text, params) => ask(read, text, params, 'column'),
    stop: async () => {},
  };
}

/** What a read is for: answering a request, or a background job (which may take longer). */
export type ReadPurpose = 'request' | 'job';

/** The options of a read of the project for `purpose`, its budget from the configuration. */
export const readFor = (config: Config, projectId: string, purpose: ReadPurpose): ReadOptions => ({
  projectId,
  budgetMs: purpose === 'request' ? config.reads.requestBudgetMs : config.reads.jobBudgetMs,
});
