// Runs in a worker thread with its own connection: copies the WAL back into the database file
// beside the main thread, so commits on the main thread never pay for a checkpoint.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 5000');
// Checkpointing streams pages from the WAL to the file: no page cache worth keeping.
db.pragma('cache_size = -1024');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or locked: the next round catches up
  }
}, everyMs);

parentPort?.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
