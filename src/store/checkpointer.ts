import { startWorker } from '../runtime/assets.js';

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Checkpoints the WAL of `file` from a worker thread every `everyMs`. */
export function startCheckpointer(file: string, everyMs = 100): Checkpointer {
  const worker = startWorker('checkpoint', { workerData: { file, everyMs } });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => void worker.terminate(), 2000);
        worker.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        worker.postMessage('stop');
      }),
  };
}
