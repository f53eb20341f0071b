// Runs in a worker thread with its own connection: copies the WAL back into the database file
// beside the main thread, so commits on the main thread rarely pay for a checkpoint.
import Database from 'better-sqlite3';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteOptions } from '../runtime/assets.js';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file, sqliteOptions(dirname(file)));
db.pragma('busy_timeout = 5000');
// Checkpointing streams pages from the WAL to the file: no page cache worth keeping.
db.pragma('cache_size = -1024');
const dbFd = openSync(file, 'r');

// Under steady writes a passive checkpoint never catches up with the end of the WAL, so the WAL
// is reset by the main connection's autocheckpoint, which syncs the WAL and the database file.
// Both are kept nearly clean from here (the checkpoint syncs the WAL it copies; we sync what it
// wrote), so those syncs on the main thread find little to flush and stay short.
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    fdatasyncSync(dbFd);
  } catch {
    // busy or locked: the next round catches up
  }
}, everyMs);

parentPort?.on('message', () => {
  clearInterval(timer);
  db.close();
  closeSync(dbFd);
  parentPort?.close();
});
