// PostgreSQL's migrations: numbered SQL files in src/store/migrations/postgres/, the same numbers
// as SQLite's from the baseline on, each applied in its own transaction. Every transaction first
// takes one advisory lock, so daemons started at once on an empty database migrate it once.
import { ConfigError } from '../../config.js';
import { listAssets, readAsset } from '../../runtime/assets.js';
import type { Db, Tx } from './db.js';

const MIGRATIONS = 'src/store/migrations/postgres';
/** The advisory lock every migration takes (any constant; this one spells "pmmg"). */
const MIGRATION_LOCK = 0x706d6d67;

/** The migration files this version knows, in order. */
export const postgresMigrationFiles = (): string[] =>
  listAssets(MIGRATIONS)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();

const versionOf = (file: string) => Number(file.slice(0, 3));

/**
 * Under the lock: the database's schema version, 0 for an empty database (whose version table it
 * makes). A database with tables but no version is another application's, and one of a newer
 * version was written by a newer Postmill: both are refused.
 */
async function lockedVersion(tx: Tx, known: number): Promise<number> {
  await tx.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
  if ((await tx.value("SELECT to_regclass('postmill_schema') IS NOT NULL")) === 0) {
    const tables = await tx.value<number>('SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()');
    if (tables! > 0) throw new ConfigError(`the PostgreSQL database has tables (${tables}) but no Postmill schema: it belongs to something else; give Postmill a database of its own`);
    await tx.exec('CREATE TABLE postmill_schema (version integer NOT NULL); INSERT INTO postmill_schema (version) VALUES (0)');
    return 0;
  }
  const version = (await tx.value<number>('SELECT version FROM postmill_schema'))!;
  if (version > known) {
    throw new ConfigError(`the PostgreSQL database has schema version ${version}, written by a newer Postmill (this one knows up to ${known}); run the newer version`);
  }
  return version;
}

/** The database's schema version (0 before the first migration). */
export async function postgresSchemaVersion(db: Db): Promise<number> {
  const exists = await db.value("SELECT to_regclass('postmill_schema') IS NOT NULL");
  return exists === 1 ? ((await db.value<number>('SELECT version FROM postmill_schema')) ?? 0) : 0;
}

/** Applies the migrations the database has not had, up to version `upTo` (all by default). */
export async function migratePostgres(db: Db, upTo = Number.POSITIVE_INFINITY): Promise<void> {
  const files = postgresMigrationFiles();
  const known = versionOf(files.at(-1) ?? '000');
  for (const file of files) {
    const version = versionOf(file);
    if (version > upTo) break;
    await db.tx(async (tx) => {
      if ((await lockedVersion(tx, known)) >= version) return;
      await tx.exec(readAsset(`${MIGRATIONS}/${file}`));
      await tx.run('UPDATE postmill_schema SET version = ?', [version]);
    });
  }
}
