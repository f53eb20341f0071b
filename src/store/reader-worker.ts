// Runs in a worker thread with its own read-only connection: the long reads (counting a filter
// over a million contacts) that would otherwise hold the main thread for a second.
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteOptions } from '../runtime/assets.js';

export interface ReadRequest {
  id: number;
  text: string;
  params: unknown[];
  /** Every row's first column instead of the first row. */
  column: boolean;
}

export type ReadAnswer = { id: number; result: unknown } | { id: number; error: string };

const { file } = workerData as { file: string };
// the single executable's native addon is found through these options, as on every other connection
const db = new Database(file, { ...sqliteOptions(dirname(file)), readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -32000');

parentPort!.on('message', (message: ReadRequest | 'stop') => {
  if (message === 'stop') {
    db.close();
    parentPort!.close();
    return;
  }
  try {
    const statement = db.prepare(message.text);
    const result = message.column ? statement.pluck().all(...message.params) : statement.get(...message.params);
    parentPort!.postMessage({ id: message.id, result } satisfies ReadAnswer);
  } catch (err) {
    parentPort!.postMessage({ id: message.id, error: (err as Error).message } satisfies ReadAnswer);
  }
});
