import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ConfigError } from '../config.js';
import { sqliteOptions } from '../runtime/assets.js';
import { ensureDataDir } from './data-dir.js';

export interface DataDirLock {
  release(): void;
}

/** The file whose lock is the data directory's. */
export const lockFile = (dataDir: string) => join(dataDir, 'postmill.lock');

/** Refusal to take the data directory: a daemon (or a restore) holds it. */
export class DataDirBusy extends ConfigError {}

/**
 * Takes the data directory for this process alone: a second `serve` (or a `restore` beside a
 * running daemon) would run a second job runner on the same queue. The lock is SQLite's own
 * (fcntl) lock on a file of its own, held by an open exclusive transaction: the system drops it
 * when the process ends in any way, kill -9 included, so it never goes stale. The store itself
 * stays open to the CLI's project commands.
 */
export function lockDataDir(dataDir: string, advice: string): DataDirLock {
  ensureDataDir(dataDir);
  const file = lockFile(dataDir);
  const db = new Database(file, { ...sqliteOptions(dataDir), timeout: 0 });
  try {
    db.pragma('journal_mode = MEMORY'); // nothing is ever written: no journal file beside the lock
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirBusy(`the data directory ${dataDir} is in use by another postmill process (a running daemon); ${advice}`);
    }
    throw err;
  }
  return { release: () => db.close() };
}
