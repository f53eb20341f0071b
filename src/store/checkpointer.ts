import { startWorker } from '../runtime/assets.js';
import { stopWorker } from './stop-worker.js';

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Checkpoints the WAL of `file` from a worker thread every `everyMs`. */
export function startCheckpointer(file: string, everyMs = 100): Checkpointer {
  const worker = startWorker('checkpoint', { workerData: { file, everyMs } });
  return { stop: () => stopWorker(worker) };
}
