// The worker side of a thread pool: answers each request with its op's handler.
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import { collectGarbage } from './collect.js';
import type { OpMap, ThreadReply, ThreadRequest } from './pool.js';

/** What a handler answers: the output, and the ArrayBuffers to move (not copy) back. */
export interface Answer<T> {
  output: T;
  transfer?: ArrayBuffer[];
  /** The op let go of tens of MB: collect them once the answer is sent, not whenever V8 would. */
  collect?: boolean;
}

export type Handlers<M extends OpMap> = { [K in keyof M]: (input: M[K]['input']) => Answer<M[K]['output']> | Promise<Answer<M[K]['output']>> };

/** A failure with detail the caller can act on (it arrives as a ThreadTaskError). */
export class TaskFailure extends Error {
  constructor(
    message: string,
    readonly detail: unknown,
  ) {
    super(message);
  }
}

export function serveOps<M extends OpMap>(handlers: Handlers<M>): void {
  parentPort?.on('message', (request: ThreadRequest) => {
    const reply = (r: ThreadReply, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(r, transfer);
    Promise.resolve()
      .then(() => handlers[request.op as keyof M](request.input as M[keyof M]['input']))
      .then(
        (answer) => {
          reply({ id: request.id, ok: true, output: answer.output }, answer.transfer);
          if (answer.collect) setImmediate(collectGarbage);
        },
        (err: unknown) =>
          reply({
            id: request.id,
            ok: false,
            error: err instanceof Error ? err.message : String(err),
            ...(err instanceof TaskFailure ? { detail: err.detail } : {}),
            // An API error (a validation failure) is answered to the client as it is.
            ...(err instanceof ApiError ? { apiError: { status: err.status, code: err.code, extra: err.extra } } : {}),
          }),
      );
  });
}

/** A copy in an ArrayBuffer of its own, to be transferred rather than cloned. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

/** Bytes handed to a thread: a view of a buffer of their own, and that buffer to transfer (the caller lets go of them). */
export function handedOver(bytes: Uint8Array): { bytes: Uint8Array; transfer: ArrayBuffer[] } {
  const own = ownBuffer(bytes);
  return { bytes: new Uint8Array(own), transfer: [own] };
}

/** Buffers arrive as plain Uint8Arrays after the structured clone. */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
