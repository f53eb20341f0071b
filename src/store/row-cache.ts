// Rows read on every request but rarely written (API keys, projects, templates, sender domains)
// are memoized until the next write to any of their tables. Writes of this connection are seen by
// TEMP triggers (they live in this connection only, so the file stays usable by any other tool);
// writes of another process (the CLI rotating keys, disabling a project) through PRAGMA data_version,
// checked once per turn of the event loop: each check is a read transaction of its own.
import type { Db, Statement } from './db.js';

const MAX_ENTRIES = 10_000;
const CHANGED = 'postmill_row_cache_changed';

interface RowCache {
  entries: Map<string, unknown>;
  watched: Set<string>;
  dataVersion: Statement;
  lastVersion: unknown;
  checkedThisTurn: boolean;
}

const caches = new WeakMap<Db, RowCache>();

function cacheOf(db: Db): RowCache {
  let cache = caches.get(db);
  if (!cache) {
    const created: RowCache = { entries: new Map(), watched: new Set(), dataVersion: db.prepare('PRAGMA data_version').pluck(), lastVersion: null, checkedThisTurn: false };
    db.function(CHANGED, { deterministic: false, directOnly: false }, () => {
      created.entries.clear();
      return null;
    });
    caches.set(db, (cache = created));
  }
  return cache;
}

function watch(db: Db, cache: RowCache, table: string): void {
  if (cache.watched.has(table)) return;
  for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
    db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS row_cache_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN SELECT ${CHANGED}(); END`);
  }
  cache.watched.add(table);
}

/**
 * Answers `load()`, memoized under `key` (name the lookup in it) until a row of one of `tables`
 * changes. Misses (null) are not kept. Inside a transaction it reads through: what it would see
 * there may still roll back. Callers get a shared object and must not change it.
 */
export function cachedRow<T>(db: Db, tables: readonly string[], key: string, load: () => T | null): T | null {
  if (db.inTransaction) return load();
  const cache = cacheOf(db);
  for (const table of tables) watch(db, cache, table);
  if (!cache.checkedThisTurn) {
    cache.checkedThisTurn = true;
    setImmediate(() => (cache.checkedThisTurn = false));
    const version = cache.dataVersion.get();
    if (version !== cache.lastVersion) {
      cache.entries.clear();
      cache.lastVersion = version;
    }
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T;
  const value = load();
  if (value === null) return null;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(key, value);
  return value;
}
