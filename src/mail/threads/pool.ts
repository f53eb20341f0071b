import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { DkimSigning } from '../../domains/signing.js';
import { startWorker } from '../../runtime/assets.js';
import type { ComposeInput } from '../compose.js';
import type { StoredComposition } from '../compose/stored.js';
import type { Reply, Request } from './worker.js';

/** The CPU-heavy pure steps of mail, on threads beside the main one. */
export interface MailThreads {
  /** Composes (and deflates for the store) one message: the costliest step of accepting a send. */
  compose(input: ComposeInput): Promise<StoredComposition>;
  /** DKIM-signs a message: the RSA signature is the costliest step of a delivery. */
  sign(raw: Buffer, key: DkimSigning): Promise<Buffer>;
  close(): Promise<void>;
}

type Op = Request['op'];
type Task<O extends Op> = Omit<Extract<Request, { op: O }>, 'id'>;
type Answer<O extends Op = Op> = Extract<Reply, { ok: true; op: O }>;

/**
 * One thread per spare core (at least one), round robin. The threads start with the first task:
 * a daemon that never sends pays nothing for them.
 */
export function createMailThreads(threads = Math.min(Math.max(availableParallelism() - 1, 1), 4)): MailThreads {
  const pending = new Map<number, { worker: Worker; resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let workers: Worker[] = [];
  const spawn = () => {
    const worker = startWorker('mail');
    worker.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(new Error(reply.error));
    });
    // A thread that died fails its own tasks and leaves the pool; the next task refills it.
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
  // A reply carries the id of its request, so it answers the task of that request's op.
  const run = <O extends Op>(task: Task<O>): Promise<Answer<O>> =>
    new Promise((resolve, reject) => {
      if (workers.length === 0) workers = Array.from({ length: threads }, spawn);
      const id = nextId++;
      const worker = workers[id % workers.length]!;
      pending.set(id, { worker, resolve: resolve as (a: Answer) => void, reject });
      worker.postMessage({ id, ...task });
    });
  return {
    compose: async (input) => {
      const a = await run<'compose'>({ op: 'compose', input });
      return { message: { bytes: Buffer.from(a.bytes), deflated: a.deflated }, size: a.size, messageId: a.messageId };
    },
    sign: async (raw, key) => Buffer.from((await run<'sign'>({ op: 'sign', raw, key })).signed),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
