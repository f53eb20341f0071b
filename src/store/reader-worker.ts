// Runs in a worker thread with its own read-only connection: the reads whose cost grows with a
// project's data (filter pages and counts, audience walks, member lists), each under its time budget.
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteOptions } from '../runtime/assets.js';
import { budgetedRead, installBudget, type ReadAnswer, type ReadRequest } from './budget.js';

const { file } = workerData as { file: string };
// the single executable's native addon is found through these options, as on every other connection
const db = new Database(file, { ...sqliteOptions(dirname(file)), readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -32000');
installBudget(db);

parentPort!.on('message', (message: ReadRequest | 'stop') => {
  if (message === 'stop') {
    db.close();
    parentPort!.close();
    return;
  }
  parentPort!.postMessage(budgetedRead(db, message) satisfies ReadAnswer);
});
