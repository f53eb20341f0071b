import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DkimSigning } from '../../domains/signing.js';
import type { PackedMessage } from '../../emails/packing.js';
import type { ComposeInput } from '../compose.js';
import type { StoredComposition } from '../compose/stored.js';
import { ownArrayBuffer } from './transfer.js';
import type { Reply, Request } from './worker.js';

/** The CPU-heavy pure steps of mail, on threads beside the main one. */
export interface MailThreads {
  /** Composes (and deflates for the store) one message: the costliest step of accepting a send. */
  compose(input: ComposeInput): Promise<StoredComposition>;
  /**
   * Unpacks a stored message and DKIM-signs it, `now` being the signature time: the RSA signature
   * is the costliest step of a delivery. The stored bytes are handed over (transferred, not
   * copied): the caller must not use them afterwards.
   */
  sign(stored: PackedMessage, key: DkimSigning, now: number): Promise<Buffer>;
  close(): Promise<void>;
}

type Op = Request['op'];
type Task<O extends Op> = Omit<Extract<Request, { op: O }>, 'id'>;
type Answer<O extends Op = Op> = Extract<Reply, { ok: true; op: O }>;

interface Thread {
  worker: Worker;
  /** Tasks sent and not answered yet: a task goes to the thread with the fewest. */
  pending: number;
}

/**
 * One thread per core (up to 4): the main thread needs well under a core for the I/O around
 * what they do, so on two cores two signing threads keep both busy. The threads start with the
 * first task: a daemon that never sends pays nothing for them.
 */
export function createMailThreads(threads = Math.min(availableParallelism(), 4)): MailThreads {
  const waiting = new Map<number, { thread: Thread; resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let pool: Thread[] = [];
  const spawn = (): Thread => {
    const thread: Thread = { worker: new Worker(new URL('./worker.js', import.meta.url)), pending: 0 };
    thread.worker.on('message', (reply: Reply) => {
      const task = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (!task) return;
      thread.pending--;
      if (reply.ok) task.resolve(reply);
      else task.reject(new Error(reply.error));
    });
    // A thread that died fails its own tasks and leaves the pool; the next task refills it.
    thread.worker.on('error', (err) => {
      pool = pool.filter((t) => t !== thread);
      for (const [id, task] of waiting) {
        if (task.thread !== thread) continue;
        waiting.delete(id);
        task.reject(err);
      }
    });
    return thread;
  };
  const leastBusy = (): Thread => {
    if (pool.length === 0) pool = Array.from({ length: threads }, spawn);
    return pool.reduce((best, t) => (t.pending < best.pending ? t : best));
  };
  // A reply carries the id of its request, so it answers the task of that request's op.
  const run = <O extends Op>(task: Task<O>, transfer: ArrayBuffer[] = []): Promise<Answer<O>> =>
    new Promise((resolve, reject) => {
      const thread = leastBusy();
      const id = nextId++;
      thread.pending++;
      waiting.set(id, { thread, resolve: resolve as (a: Answer) => void, reject });
      thread.worker.postMessage({ id, ...task }, transfer);
    });
  return {
    compose: async (input) => {
      const a = await run<'compose'>({ op: 'compose', input });
      return { message: { bytes: Buffer.from(a.bytes), deflated: a.deflated }, size: a.size, messageId: a.messageId };
    },
    sign: async (stored, key, now) => {
      const bytes = new Uint8Array(ownArrayBuffer(stored.bytes));
      const a = await run<'sign'>({ op: 'sign', stored: { bytes, deflated: stored.deflated }, key, now }, [bytes.buffer]);
      return Buffer.from(a.signed);
    },
    close: async () => {
      await Promise.all(pool.map((t) => t.worker.terminate()));
    },
  };
}
