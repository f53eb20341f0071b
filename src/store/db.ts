import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from '../paths.js';

export type Db = Database.Database;
export type Statement = Database.Statement;

/** Opens (creating if needed) the store in dataDir and applies pending migrations. */
export const storeFile = (dataDir: string) => join(dataDir, 'postmill.db');

export function openStore(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(storeFile(dataDir));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // durable across process crashes in WAL mode; fsync at checkpoints
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  // The daemon copies the WAL back from a worker thread (checkpointer.ts). Resetting the WAL needs a
  // moment with no new frames, which only the writer has: this commit-time checkpoint does it,
  // cheaply because the worker has already copied and synced nearly everything.
  db.pragma('wal_autocheckpoint = 16000');
  db.pragma('journal_size_limit = 67108864');
  migrate(db);
  return db;
}

/** Applies `NNN_name.sql` files from src/store/migrations in order, each in its own transaction. */
function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const files = readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    if (version <= current) continue;
    const text = readFileSync(join(migrationsDir, file), 'utf8');
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
    return fallback;
  }
}
