// What a store's schema must be: exactly what this program's migrations make, nothing more. A
// backup is compared with a fresh store migrated to the backup's version before it may replace
// the store: a trigger, view or index slipped into a backup would otherwise run inside the daemon.
import Database from 'better-sqlite3';
import { ConfigError } from '../config.js';
import { sqliteOptions } from '../runtime/assets.js';
import { migrate, type Db } from './db.js';

/** One entry of sqlite_master: a table, index, trigger or view, with the SQL that made it. */
interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Differences named in a refusal, at most. */
const SHOWN = 5;

const schemaOf = (db: Db): SchemaEntry[] => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as SchemaEntry[];

/** The schema of a fresh store that this program migrated to `version`. */
function expectedSchema(dataDir: string, version: number): SchemaEntry[] {
  const fresh = new Database(':memory:', sqliteOptions(dataDir));
  try {
    migrate(fresh, version);
    return schemaOf(fresh);
  } finally {
    fresh.close();
  }
}

/** SQL compared as SQLite keeps it, but blind to how it is spaced. */
const sqlText = (sql: string | null) => sql?.replace(/\s+/g, ' ').trim() ?? null;
const entryName = (e: SchemaEntry) => `${e.type} ${e.name}`;

/** What `actual` has that `expected` has not, what it lacks, and what it defines otherwise. */
function differences(actual: SchemaEntry[], expected: SchemaEntry[]): string[] {
  const wanted = new Map(expected.map((e) => [entryName(e), e]));
  const found = new Map(actual.map((e) => [entryName(e), e]));
  const out: string[] = [];
  for (const [name, entry] of found) {
    const want = wanted.get(name);
    if (!want) out.push(`unexpected ${name}`);
    else if (want.tbl_name !== entry.tbl_name || sqlText(want.sql) !== sqlText(entry.sql)) out.push(`${name} is defined otherwise`);
  }
  for (const name of wanted.keys()) if (!found.has(name)) out.push(`missing ${name}`);
  return out;
}

/**
 * Refuses (ConfigError, one line) a store whose schema is not exactly that of a store of its
 * version (`user_version`) made by this program: tables, indexes, triggers and views, by name and
 * SQL. A store of version 0 has had no migration: it is no Postmill store.
 */
export function assertExpectedSchema(db: Db, dataDir: string, what: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < 1) throw new ConfigError(`${what} is not a Postmill store (schema version ${version}: no migration was ever applied to it)`);
  const found = differences(schemaOf(db), expectedSchema(dataDir, version));
  if (found.length === 0) return;
  const more = found.length > SHOWN ? `, and ${found.length - SHOWN} more` : '';
  throw new ConfigError(`${what} does not have the schema of a Postmill store of version ${version}: ${found.slice(0, SHOWN).join(', ')}${more}`);
}
