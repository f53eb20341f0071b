import Database from 'better-sqlite3';
import { closeSync, existsSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { sqliteOptions } from '../runtime/assets.js';
import { assertKnownVersion, openStore, storeFile } from './db.js';
import { lockDataDir, lockFile } from './lock.js';
import { assertExpectedSchema } from './schema-check.js';

/** The file the store replaced by the last restore is kept under this suffix. */
export const PREVIOUS_SUFFIX = '.before-restore';

/** Symbolic links a path may go through before it is refused (the system's own bound is 40). */
const MAX_LINKS = 40;

/** Where writing to `file` lands: every symbolic link followed, dangling ones too; a missing file is named in its real directory. */
function landingPath(file: string): string {
  let path = resolve(file);
  for (let links = 0; links < MAX_LINKS; links++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch {
      // nothing at this path (yet): the file lands in its directory's real path
      try {
        return join(realpathSync(dirname(path)), basename(path));
      } catch (err) {
        throw new ConfigError(`cannot write ${file}: ${(err as Error).message}`);
      }
    }
    if (!isLink) return realpathSync(path);
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new ConfigError(`cannot write ${file}: too many symbolic links`);
}

/** The files the live store is made of: writing over any of them would destroy it. */
const liveFiles = (dataDir: string) => {
  const store = storeFile(dataDir);
  return [store, `${store}-wal`, `${store}-shm`, `${store}-journal`, lockFile(dataDir)];
};

const sameFile = (a: string, b: string) => {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    // one of them does not exist: not the same file
    return false;
  }
};

/** Refuses a backup target that is, by any name (a relative path, a symbolic or a hard link), one of the live store's files. */
function assertNotLive(dataDir: string, file: string, landing: string): void {
  for (const live of liveFiles(dataDir)) {
    if (landingPath(live) === landing || sameFile(live, landing)) {
      throw new ConfigError(`${file} is ${basename(live)}, a file of the live store; name a file outside the store`);
    }
  }
}

/** Creates an empty file only the owner may read: SQLite gives the journal it makes beside it the same mode. */
function createPrivate(path: string): void {
  rmSync(path, { force: true });
  closeSync(openSync(path, 'wx', 0o600));
}

/**
 * An online, consistent copy of the store (SQLite's backup API): a running daemon goes on working.
 * The copy holds DKIM private keys and webhook secrets: it is written 0600, beside its target and
 * renamed over it when complete. Answers its size.
 */
export async function backupStore(dataDir: string, file: string): Promise<number> {
  const target = landingPath(file);
  assertNotLive(dataDir, file, target);
  const partial = `${target}.partial`;
  createPrivate(partial);
  try {
    const db = openStore(dataDir);
    try {
      await db.backup(partial);
    } finally {
      db.close();
    }
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return statSync(target).size;
}

/** Copies the backup in `file` to `incoming` (SQLite's backup API: whatever journal the backup carries is folded in). */
async function copyBackup(dataDir: string, file: string, incoming: string): Promise<void> {
  let source: Database.Database;
  try {
    source = new Database(file, { ...sqliteOptions(dataDir), readonly: true, fileMustExist: true });
  } catch (err) {
    throw new ConfigError(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    createPrivate(incoming);
    await source.backup(incoming);
  } catch (err) {
    throw new ConfigError(`${file} is not a Postmill backup: ${(err as Error).message}`);
  } finally {
    source.close();
  }
}

/**
 * Refuses a copy that is not an intact store of this or an older version with exactly the schema
 * this program gives a store of its version (no table, index, trigger or view more or less).
 */
function checkCopy(dataDir: string, file: string, copy: string): void {
  const db = new Database(copy, { ...sqliteOptions(dataDir), readonly: true, fileMustExist: true });
  try {
    assertKnownVersion(db.pragma('user_version', { simple: true }) as number, `the backup ${file}`);
    assertExpectedSchema(db, dataDir, `the backup ${file}`);
    const quick = db.pragma('quick_check', { simple: true });
    if (quick !== 'ok') throw new ConfigError(`${file} is not an intact Postmill backup (${String(quick)})`);
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError(`${file} is not a Postmill backup: ${(err as Error).message}`);
  } finally {
    db.close();
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
 * refused while a daemon runs and no daemon can start halfway. The backup is copied and the copy
 * checked before anything is replaced; the replaced store is kept as postmill.db.before-restore;
 * migrations bring an older backup up to date at the next start.
 */
export async function restoreStore(dataDir: string, file: string): Promise<void> {
  const lock = lockDataDir(dataDir, 'stop the daemon before restoring (systemctl stop postmill)');
  try {
    const target = storeFile(dataDir);
    const incoming = `${target}.restoring`;
    try {
      await copyBackup(dataDir, file, incoming);
      checkCopy(dataDir, file, incoming);
    } catch (err) {
      rmSync(incoming, { force: true });
      throw err;
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
