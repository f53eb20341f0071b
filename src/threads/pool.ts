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

/**
 * The thread running a task ended before it answered. `own`: the task ran alone on it, so its own
 * work ended it, and trying it again would end the next thread too: out of memory it is too large
 * to process (413), otherwise a failure of ours (500). A task that shared the thread with others
 * cannot tell which one ended it, and its input went with the thread: 503, to be sent again.
 */
export class ThreadDied extends ApiError {
  constructor(
    readonly own: boolean,
    readonly outOfMemory: boolean,
    readonly reason: string,
  ) {
    super(...ThreadDied.answer(own, outOfMemory));
  }

  private static answer(own: boolean, outOfMemory: boolean): ConstructorParameters<typeof ApiError> {
    if (!own) return [503, 'SERVICE_UNAVAILABLE', 'A worker thread handling this request stopped; send it again', { headers: { 'Retry-After': '1' } }];
    if (outOfMemory) {
      return [413, 'PAYLOAD_TOO_LARGE', 'The request needs more memory to process than the daemon allows one request', { suggestion: 'Send a smaller message, or fewer recipients at once' }];
    }
    return [500, 'INTERNAL_SERVER_ERROR', 'The worker thread handling this request stopped'];
  }
}

/** The two pools of compose threads as a feature sees them: the ordinary ones and the heavy one, each answering `M`. */
export interface Pools<M extends OpMap> {
  compose: ThreadPool<M>;
  heavy: ThreadPool<M>;
}

export interface ThreadPool<M extends OpMap> {
  run<K extends keyof M & string>(op: K, input: M[K]['input'], transfer?: readonly ArrayBuffer[]): Promise<M[K]['output']>;
  /** The tasks given to the pool since it was made, by op: which pool served what (GET /_test/threads). */
  served(): Record<string, number>;
  close(): Promise<void>;
}

export interface PoolOptions {
  resourceLimits?: ResourceLimits;
  /**
   * Tasks a thread is given at a time; the rest wait in the pool (default: no bound, each goes to
   * the thread with the fewest). With one, a thread that dies takes only the task that ended it:
   * the waiting ones still hold their input and go to the thread started in its place.
   */
  tasksPerThread?: number;
  /** Told of each thread that ended with tasks running on it. */
  onDeath?: (reason: string, tasks: number) => void;
}

interface Task {
  id: number;
  request: ThreadRequest;
  transfer: ArrayBuffer[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  running: Map<number, Task>;
  error: Error | null;
}

/**
 * `size` threads of `script`. They start with the first task, so a daemon that never needs them
 * pays nothing; a thread that ends (a heap limit reached, a crash) fails the tasks running on it
 * (see ThreadDied) and another takes its place for the tasks still waiting.
 */
export function createThreadPool<M extends OpMap>(script: WorkerScript, size: number, options: PoolOptions = {}): ThreadPool<M> {
  const perThread = options.tasksPerThread ?? Number.POSITIVE_INFINITY;
  const waiting: Task[] = [];
  let threads: Thread[] = [];
  let nextId = 0;
  let closed = false;
  const served = new Map<string, number>();

  const spawn = (): Thread => {
    // stdout is read and dropped: the daemon's stdout carries its JSON lines, and a library's console
    // output in a thread could be made by a stranger (mailauth prints a line for a DKIM signature
    // whose l= does not match the body, and any sender can write one)
    const worker = startWorker(script, { stdout: true, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
    worker.stdout.resume();
    const thread: Thread = { worker, running: new Map(), error: null };
    thread.worker.on('message', (reply: ThreadReply) => {
      const task = thread.running.get(reply.id);
      if (!task) return;
      thread.running.delete(reply.id);
      if (reply.ok) task.resolve(reply.output);
      else task.reject(failureOf(reply));
      dispatch();
    });
    thread.worker.on('error', (err) => (thread.error = err));
    thread.worker.on('exit', (code) => ended(thread, code));
    return thread;
  };

  const ended = (thread: Thread, code: number) => {
    threads = threads.filter((t) => t !== thread);
    const tasks = [...thread.running.values()];
    thread.running.clear();
    if (tasks.length === 0) return;
    // stopped by close(): no task ended it, each may be sent again to the next daemon
    if (closed) return tasks.forEach((task) => task.reject(new ThreadDied(false, false, 'the pool was closed')));
    const reason = thread.error?.message ?? `exit code ${code}`;
    const outOfMemory = (thread.error as NodeJS.ErrnoException | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    options.onDeath?.(reason, tasks.length);
    for (const task of tasks) task.reject(new ThreadDied(tasks.length === 1, outOfMemory, reason));
    dispatch();
  };

  const dispatch = () => {
    if (closed) return;
    while (waiting.length > 0) {
      while (threads.length < size) threads.push(spawn());
      const free = threads.reduce<Thread | null>((best, t) => (t.running.size < perThread && (!best || t.running.size < best.running.size) ? t : best), null);
      if (!free) return;
      const task = waiting.shift()!;
      free.running.set(task.id, task);
      free.worker.postMessage(task.request, task.transfer);
    }
  };

  return {
    run: (op, input, transfer = []) =>
      new Promise((resolve, reject) => {
        if (closed) return reject(new Error('the thread pool is closed'));
        const id = nextId++;
        served.set(op, (served.get(op) ?? 0) + 1);
        waiting.push({ id, request: { id, op, input } satisfies ThreadRequest, transfer: [...transfer], resolve: resolve as (v: unknown) => void, reject });
        dispatch();
      }),
    served: () => Object.fromEntries(served),
    close: async () => {
      closed = true;
      for (const task of waiting.splice(0)) task.reject(new Error('the thread pool is closed'));
      await Promise.all(threads.map((t) => t.worker.terminate()));
      threads = [];
    },
  };
}
