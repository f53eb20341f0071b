// A full collection on demand, for threads that just let go of tens of MB: V8 would keep that
// garbage (strings and the buffers they reference) until its heap grows further, and a daemon's
// memory is its peak. `--expose-gc` is set once by the main thread before it starts any thread
// (V8 flags are process-wide and must not change while other threads run); it gives every context
// created afterwards, the threads' own, a global `gc`.
import { setFlagsFromString } from 'node:v8';

/** On the main thread, before the first worker starts. */
export function allowCollectionInThreads(): void {
  setFlagsFromString('--expose-gc');
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Collects now where the thread was started with collection allowed; otherwise leaves it to V8. */
export const collectGarbage = (): void => gc?.();

/** Whether an op that handled this many bytes should ask for a collection: a few per second at most. */
export const worthCollecting = (bytes: number): boolean => bytes >= 1024 * 1024;
