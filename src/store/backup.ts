import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { sqliteOptions } from '../runtime/assets.js';
import { assertKnownVersion, openStore, storeFile } from './db.js';
import { lockDataDir } from './lock.js';

/** The file the store replaced by the last restore is kept under this suffix. */
export const PREVIOUS_SUFFIX = '.before-restore';

/** An online, consistent copy of the store (SQLite's backup API): a running daemon goes on working. Answers its size. */
export async function backupStore(dataDir: string, file: string): Promise<number> {
  if (resolve(file) === resolve(storeFile(dataDir))) throw new ConfigError(`${file} is the store itself; name another file`);
  const db = openStore(dataDir);
  try {
    await db.backup(file);
  } finally {
    db.close();
  }
  return statSync(file).size;
}

/** Opens `file` read-only and refuses anything that is not an intact store of this or an older version. */
function openBackup(dataDir: string, file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { ...sqliteOptions(dataDir), readonly: true, fileMustExist: true });
  } catch (err) {
    throw new ConfigError(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    const quick = db.pragma('quick_check', { simple: true });
    const isStore = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projects'").get() !== undefined;
    if (quick !== 'ok' || !isStore) throw new ConfigError(`${file} is not an intact Postmill backup (${quick !== 'ok' ? String(quick) : 'no projects table'})`);
    assertKnownVersion(db.pragma('user_version', { simple: true }) as number, `the backup ${file}`);
    return db;
  } catch (err) {
    db.close();
    throw err instanceof ConfigError ? err : new ConfigError(`${file} is not a Postmill backup: ${(err as Error).message}`);
  }
}

/** Folds the WAL of the current store into its file, so the file alone is the whole store. */
function settleCurrent(path: string, dataDir: string): void {
  const db = new Database(path, sqliteOptions(dataDir));
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Replaces the store with the backup in `file`. Takes the data directory's lock first, so it is
 * refused while a daemon runs and no daemon can start halfway. The replaced store is kept as
 * postmill.db.before-restore; migrations bring an older backup up to date at the next start.
 */
export async function restoreStore(dataDir: string, file: string): Promise<void> {
  const lock = lockDataDir(dataDir, 'stop the daemon before restoring (systemctl stop postmill)');
  try {
    const target = storeFile(dataDir);
    const incoming = `${target}.restoring`;
    const source = openBackup(dataDir, file);
    try {
      rmSync(incoming, { force: true });
      await source.backup(incoming);
    } finally {
      source.close();
    }
    if (existsSync(target)) {
      settleCurrent(target, dataDir);
      renameSync(target, target + PREVIOUS_SUFFIX);
    }
    for (const leftover of [`${target}-wal`, `${target}-shm`]) rmSync(leftover, { force: true });
    renameSync(incoming, target);
  } finally {
    lock.release();
  }
}
