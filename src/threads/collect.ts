// A full collection on demand, for threads that just let go of tens of MB: V8 would keep that
// garbage (strings and the buffers they reference) until its heap grows further, and a daemon's
// memory is its peak. The global `gc` exists in threads started after the main thread's
// `--expose-gc` (runtime/v8-settings.ts).

const gc = (globalThis as { gc?: () => void }).gc;

/** Collects now where the thread was started with collection allowed; otherwise leaves it to V8. */
export const collectGarbage = (): void => gc?.();

/** Whether an op that handled this many bytes should ask for a collection: a few per second at most. */
export const worthCollecting = (bytes: number): boolean => bytes >= 1024 * 1024;
