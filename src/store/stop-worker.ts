import type { Worker } from 'node:worker_threads';

/** Asks a store worker to close its connection and exit ('stop'); terminates it if it has not within 2 s. */
export function stopWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => void worker.terminate(), 2000);
    worker.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    worker.postMessage('stop');
  });
}
