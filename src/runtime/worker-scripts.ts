/** The program's worker-thread entry points: the mail (signing) threads, the compose threads, the WAL checkpoint thread and the reader thread. */
export type WorkerScript = 'mail' | 'compose' | 'checkpoint' | 'reader';
