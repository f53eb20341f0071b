/** The program's worker-thread entry points: the mail (signing) threads, the compose threads and the WAL checkpoint thread. */
export type WorkerScript = 'mail' | 'compose' | 'checkpoint';
