import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ConfigError } from '../config.js';
import { listAssets, readAsset, sqliteOptions } from '../runtime/assets.js';
import { installBudget } from './budget.js';
import { ensureDataDir } from './data-dir.js';

export type Db = Database.Database;
export type Statement = Database.Statement;

/** Opens (creating if needed) the store in dataDir and applies pending migrations. */
export const storeFile = (dataDir: string) => join(dataDir, 'postmill.db');

export function openStore(dataDir: string): Db {
  ensureDataDir(dataDir);
  const db = new Database(storeFile(dataDir), sqliteOptions(dataDir));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // durable across process crashes in WAL mode; fsync at checkpoints
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // 8 MB holds the hot index pages; the rest comes from the OS page cache at a syscall each, while a
  // larger cache fills with message pages during a long drain and stays in the daemon's RSS.
  db.pragma('cache_size = -8000');
  db.pragma('temp_store = MEMORY');
  // The daemon copies the WAL back from a worker thread (checkpointer.ts). Resetting the WAL needs a
  // moment with no new frames, which only the writer has: this commit-time checkpoint does it,
  // cheaply because the worker has already copied and synced nearly everything.
  db.pragma('wal_autocheckpoint = 16000');
  db.pragma('journal_size_limit = 67108864');
  // statements built for the reader threads (budget.ts) run here too: in tools, and in tests without threads
  installBudget(db);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

const MIGRATIONS = 'src/store/migrations';

/** The migration files this version knows, in order. */
const migrationFiles = () =>
  listAssets(MIGRATIONS)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();

/** The schema version this program writes: the number of its last migration. */
export const schemaVersion = (): number => Number(migrationFiles().at(-1)?.slice(0, 3) ?? 0);

/** Refuses a store written by a newer version: its tables may mean things this version does not know. */
export function assertKnownVersion(version: number, what: string): void {
  const known = schemaVersion();
  if (version > known) {
    throw new ConfigError(
      `${what} has schema version ${version}, written by a newer Postmill (this one knows up to ${known}); run the newer version, or restore a backup made by this one`,
    );
  }
}

/**
 * Applies `NNN_name.sql` files from src/store/migrations in order, each in its own transaction, up
 * to version `upTo` (all of them by default).
 */
export function migrate(db: Db, upTo = Number.POSITIVE_INFINITY): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  assertKnownVersion(current, `the store ${db.name}`);
  for (const file of migrationFiles()) {
    const version = Number(file.slice(0, 3));
    if (version <= current) continue;
    if (version > upTo) break;
    const text = readAsset(`${MIGRATIONS}/${file}`);
    db.transaction(() => {
      db.exec(text);
      db.pragma(`user_version = ${version}`);
    })();
  }
}

const cache = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, prepared once per connection and reused. */
export function sql(db: Db, text: string): Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let stmt = byText.get(text);
  if (!stmt) byText.set(text, (stmt = db.prepare(text)));
  return stmt;
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    // text that is not JSON reads as the caller's default: one bad row never fails a read
    return fallback;
  }
}
