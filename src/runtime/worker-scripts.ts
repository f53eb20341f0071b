/** The program's worker-thread entry points: the mail threads and the WAL checkpoint thread. */
export type WorkerScript = 'mail' | 'checkpoint';
