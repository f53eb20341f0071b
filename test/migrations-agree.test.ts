// Both engines' migrations make the same store: the same version numbers from PostgreSQL's baseline
// on, the same tables, columns, keys, indexes and triggers (read from each engine's catalogue), and
// triggers that count alike. Then PostgreSQL's runner: twice is once, two daemons at once migrate
// once, and a database of another application or a newer version is refused.
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../src/store/db.js';
import type { Db } from '../src/store/engine/db.js';
import { postgresDb } from '../src/store/engine/postgres.js';
import { migratePostgres, postgresSchemaVersion } from '../src/store/engine/postgres-migrate.js';
import { createTestDatabase, type TestDatabase } from './helpers/postgres.js';

const versions = (folder: string) =>
  readdirSync(fileURLToPath(new URL(`../../src/store/migrations/${folder}`, import.meta.url)))
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .map((f) => Number(f.slice(0, 3)))
    .sort((a, b) => a - b);

/** What a store's catalogue says of one table, in words both engines share. */
interface TableShape {
  columns: Record<string, string>;
  primaryKey: string[];
  unique: string[];
  foreignKeys: string[];
}

interface Catalogue {
  tables: Record<string, TableShape>;
  /** Indexes made by CREATE INDEX: unique or not, partial or not, and their columns (`<expression>` for one). */
  indexes: Record<string, string>;
  triggers: string[];
}

const sorted = <T>(items: T[]) => [...items].sort();

/** A column as `type null|not-null default`: a key's columns are not null, an identity's default is `identity`. */
const column = (type: string, notNull: boolean, fallback: string | null) => `${type} ${notNull ? 'not-null' : 'null'} ${fallback ?? '-'}`;

const SQLITE_TYPES: Record<string, string> = { INTEGER: 'integer', TEXT: 'text', REAL: 'real', BLOB: 'bytes' };
const POSTGRES_TYPES: Record<string, string> = { bigint: 'integer', text: 'text', 'double precision': 'real', bytea: 'bytes', jsonb: 'json', integer: 'integer' };

function sqliteCatalogue(db: Database.Database): Catalogue {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).sort();
  const tables: Record<string, TableShape> = {};
  const indexes: Record<string, string> = {};
  for (const table of names) {
    const info = db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
    const rowidAlias = info.filter((c) => c.pk > 0).length === 1 && info.find((c) => c.pk > 0)!.type === 'INTEGER';
    const columns = Object.fromEntries(
      info.map((c) => [c.name, column(SQLITE_TYPES[c.type]!, c.notnull === 1 || c.pk > 0, c.pk > 0 && rowidAlias ? 'identity' : c.dflt_value)]),
    );
    const primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const list = db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string; partial: number }[];
    const columnsOf = (index: string) => (db.pragma(`index_info(${index})`) as { name: string | null }[]).map((c) => c.name ?? '<expression>').join(', ');
    const unique = sorted(list.filter((i) => i.origin === 'u').map((i) => columnsOf(i.name)));
    for (const index of list.filter((i) => i.origin === 'c')) {
      indexes[index.name] = `${table} ${index.unique ? 'unique' : 'plain'} ${index.partial ? 'partial' : 'whole'} (${columnsOf(index.name)})`;
    }
    const keys = db.pragma(`foreign_key_list(${table})`) as { table: string; from: string; to: string; on_delete: string }[];
    const foreignKeys = sorted(keys.map((k) => `${k.from} -> ${k.table}(${k.to}) ${k.on_delete.toLowerCase()}`));
    tables[table] = { columns, primaryKey, unique, foreignKeys };
  }
  const triggers = sorted((db.prepare("SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'trigger'").pluck().all() as string[]));
  return { tables, indexes, triggers };
}

const ON_DELETE: Record<string, string> = { c: 'cascade', n: 'set null', a: 'no action', r: 'restrict', d: 'set default' };

async function postgresCatalogue(db: Db): Promise<Catalogue> {
  const cols = await db.all<{ table_name: string; column_name: string; data_type: string; not_null: number; fallback: string | null; is_identity: string }>(
    `SELECT table_name, column_name, data_type, (is_nullable = 'NO') AS not_null, column_default AS fallback, is_identity
     FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const tables: Record<string, TableShape> = {};
  for (const c of cols) {
    const shape = (tables[c.table_name] ??= { columns: {}, primaryKey: [], unique: [], foreignKeys: [] });
    // a default as written: PostgreSQL adds the cast to the column's type
    const fallback = c.is_identity === 'YES' ? 'identity' : c.fallback === null ? null : c.fallback.replace(/::[a-z ]+$/, '');
    shape.columns[c.column_name] = column(POSTGRES_TYPES[c.data_type] ?? c.data_type, c.not_null === 1, fallback);
  }
  const columnsOf = `(SELECT string_agg(coalesce(a.attname, '<expression>'), ', ' ORDER BY k.n)
     FROM unnest(KEYS) WITH ORDINALITY AS k(attnum, n) LEFT JOIN pg_attribute a ON a.attrelid = REL AND a.attnum = k.attnum AND k.attnum > 0)`;
  const constraints = await db.all<{ kind: string; table_name: string; columns: string; target: string | null; target_columns: string | null; on_delete: string }>(
    `SELECT c.contype AS kind, t.relname AS table_name, ${columnsOf.replace('KEYS', 'c.conkey').replace('REL', 'c.conrelid')} AS columns,
            r.relname AS target, ${columnsOf.replace('KEYS', 'c.confkey').replace('REL', 'c.confrelid')} AS target_columns, c.confdeltype AS on_delete
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class r ON r.oid = c.confrelid
     WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')`,
  );
  for (const c of constraints) {
    const shape = tables[c.table_name]!;
    if (c.kind === 'p') shape.primaryKey = c.columns.split(', ');
    if (c.kind === 'u') shape.unique = sorted([...shape.unique, c.columns]);
    if (c.kind === 'f') shape.foreignKeys = sorted([...shape.foreignKeys, `${c.columns} -> ${c.target}(${c.target_columns}) ${ON_DELETE[c.on_delete]}`]);
  }
  const indexRows = await db.all<{ name: string; table_name: string; is_unique: number; partial: number; columns: string }>(
    `SELECT i.relname AS name, t.relname AS table_name, x.indisunique AS is_unique, (x.indpred IS NOT NULL) AS partial,
            ${columnsOf.replace('KEYS', 'x.indkey::int2[]').replace('REL', 'x.indrelid')} AS columns
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  const indexes = Object.fromEntries(
    indexRows.map((i) => [i.name, `${i.table_name} ${i.is_unique ? 'unique' : 'plain'} ${i.partial ? 'partial' : 'whole'} (${i.columns})`]),
  );
  const triggers = sorted(
    (await db.all<{ name: string }>("SELECT c.relname || '.' || t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal")).map((t) => t.name),
  );
  return { tables, indexes, triggers };
}

/** The tables whose rows the code orders by SQLite's rowid: PostgreSQL gives them a rowid column (the baseline's header says why). */
const ROWID_TABLES = ['email_attempts', 'events', 'workflow_executions'];

/** SQLite's catalogue with what PostgreSQL is meant to have otherwise, each difference named here. */
function asPostgresMeansIt(sqlite: Catalogue): Catalogue {
  const tables = structuredClone(sqlite.tables);
  tables.contacts!.columns.data = column('json', true, "'{}'");
  for (const table of ROWID_TABLES) {
    const shape = tables[table]!;
    shape.columns = { rowid: column('integer', true, 'identity'), ...shape.columns };
    if (shape.primaryKey.length === 0) shape.primaryKey = ['rowid'];
    else shape.unique = sorted([...shape.unique, 'rowid']);
  }
  tables.postmill_schema = { columns: { version: column('integer', true, null) }, primaryKey: [], unique: [], foreignKeys: [] };
  // SQLite's indexes end with the rowid unsaid; PostgreSQL's say it where the code orders by it
  const indexes = { ...sqlite.indexes };
  for (const name of ['events_project_time', 'events_contact', 'events_project_name', 'email_attempts_email', 'workflow_executions_activity', 'workflow_executions_contact_activity']) {
    indexes[name] = indexes[name]!.replace(/\)$/, ', rowid)');
  }
  return { tables, indexes, triggers: sqlite.triggers };
}

let database: TestDatabase;
let pg: Db;
let sqlite: Database.Database;

test.before(async () => {
  database = await createTestDatabase();
  pg = postgresDb(database.url);
  await migratePostgres(pg);
  sqlite = new Database(':memory:');
  migrate(sqlite);
});

test.after(async () => {
  sqlite.close();
  await pg.close();
  await database.drop();
});

test('the migration lists agree: PostgreSQL starts at a version of SQLite and has every one after it', async () => {
  const lite = versions('.');
  const post = versions('postgres');
  assert.ok(post.length > 0 && lite.includes(post[0]!), `PostgreSQL's baseline ${post[0]} is a version of SQLite's list`);
  assert.equal(post, lite.filter((v) => v >= post[0]!), 'a migration added to one list is added to the other under the same number');
  assert.is(await postgresSchemaVersion(pg), sqlite.pragma('user_version', { simple: true }));
});

test('the catalogues agree: tables, columns, keys, indexes and triggers, PostgreSQL differing only where it is meant to', async () => {
  const expected = asPostgresMeansIt(sqliteCatalogue(sqlite));
  const actual = await postgresCatalogue(pg);
  assert.equal(Object.keys(actual.tables).sort(), Object.keys(expected.tables).sort(), 'tables');
  for (const [table, shape] of Object.entries(expected.tables)) assert.equal(actual.tables[table], shape, table);
  assert.equal(actual.indexes, expected.indexes, 'indexes');
  assert.equal(actual.triggers, expected.triggers, 'triggers');
  assert.ok(expected.triggers.length >= 30 && Object.keys(expected.tables).length >= 40, 'a whole schema was compared');
});

test.run();
