// Both engines' migrations make the same store: the same version numbers from PostgreSQL's baseline
// on, the same tables, columns, keys, indexes and triggers (read from each engine's catalogue), and
// triggers that count alike. Then PostgreSQL's runner: twice is once, two daemons at once migrate
// once, and a database of another application or a newer version is refused.
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../src/config.js';
import { migrate } from '../src/store/db.js';
import type { Db, Param } from '../src/store/engine/db.js';
import { postgresDb } from '../src/store/engine/postgres.js';
import { migratePostgres, postgresSchemaVersion } from '../src/store/engine/postgres-migrate.js';
import { sqliteDb } from '../src/store/engine/sqlite.js';
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

/** Writes that set off every trigger, some twice and some not at all (a WHEN that does not hold). */
const T = 1_700_000_000_000;
const HOUR = 3_600_000;
const WRITES: [string, Param[]][] = [
  ["INSERT INTO projects (id, name, created_at, updated_at) VALUES ('p1', 'P', 0, 0)", []],
  ...[['c1', 1], ['c2', 0], ['c3', 1]].map(([id, subscribed]): [string, Param[]] => [
    "INSERT INTO contacts (id, project_id, email, email_lc, subscribed, created_at, updated_at) VALUES (?, 'p1', ?, ?, ?, 0, 0)",
    [id!, `${id}@x.test`, `${id}@x.test`, subscribed!],
  ]),
  ["UPDATE contacts SET subscribed = 1 WHERE id IN ('c1', 'c2')", []],
  ["DELETE FROM contacts WHERE id = 'c3'", []],
  [
    `INSERT INTO campaigns (id, project_id, name, subject, body, from_email, type, status, audience_type, search_lc, walked, created_at, updated_at)
     VALUES ('k1', 'p1', 'K', 's', 'b', 'f@a.test', 'MARKETING', 'SENDING', 'ALL', 'k', 1, 0, 0)`,
    [],
  ],
  ...[
    ['e1', 'k1', 'CAMPAIGN', 'ann@Rcpt.TEST'],
    ['e2', 'k1', 'CAMPAIGN', 'bob@ÉCOLE.Test'],
    ['e3', 'k1', 'CAMPAIGN', 'carl@x@Two.test'],
    ['e4', 'k1', 'CAMPAIGN', 'dan@Simulator.Postmill.Invalid'],
    ['e5', null, 'TRANSACTIONAL', 'eve@rcpt.test'],
    ['e6', null, 'INBOUND', 'support@a.test'],
  ].map(([id, campaign, source, to]): [string, Param[]] => [
    `INSERT INTO emails (id, project_id, campaign_id, source_type, message_type, to_email, from_email, subject, sender_domain, message_id, status, created_at, updated_at)
     VALUES (?, 'p1', ?, ?, 'MARKETING', ?, 'f@a.test', 's', 'a.test', ?, 'queued', ?, ?)`,
    [id!, campaign!, source!, to!, `<${id}@a.test>`, T, T],
  ]),
  ["UPDATE emails SET status = 'deferred', deferrals = 1 WHERE id = 'e1'", []],
  ["UPDATE emails SET status = 'delivered', delivered_at = ? WHERE id = 'e1'", [T + HOUR]],
  ["UPDATE emails SET status = 'bounced', bounced_at = ? WHERE id = 'e2'", [T + 2 * HOUR]],
  ["UPDATE emails SET first_opened_at = ?, first_clicked_at = ? WHERE id = 'e3'", [T + HOUR, T + 3 * HOUR]],
  ["UPDATE emails SET status = 'delivered', delivered_at = ?, complained_at = ?, unsubscribed_at = ? WHERE id = 'e3'", [T, T + 4 * HOUR, T + 4 * HOUR]],
  ["UPDATE emails SET status = 'delivered', delivered_at = ?, complained_at = ? WHERE id = 'e4'", [T, T]],
  ["UPDATE emails SET bounced_at = ?, complained_at = ? WHERE id IN ('e5', 'e6')", [T, T]],
  ...[
    ['v1', 'c1', 'e1', 'email.sent', '{}', T],
    ['v2', 'c1', 'e1', 'email.open', '{"isFirstOpen":true}', T],
    ['v3', 'c1', 'e1', 'email.open', '{"isFirstOpen":false}', T],
    ['v4', 'c1', 'e3', 'email.click', '{"link":"https://x.test/a","isFirstClick":1}', T],
    ['v5', 'c1', 'e3', 'email.click', '{"link":"https://x.test/a","isFirstClick":false}', T],
    ['v6', 'c1', 'e1', 'email.click', '{"link":"https://x.test/a"}', T],
    ['v7', null, 'e2', 'email.bounce', '{"transientBounce":true}', T],
    ['v8', null, 'e2', 'email.bounce', '{}', T + 24 * HOUR],
    ['v9', null, 'e4', 'email.complaint', '{"simulated":true}', T],
    ['v10', null, null, 'custom.thing', '{"isFirstOpen":true}', T],
    ['v11', 'c2', 'e5', 'email.delivery', '{}', T],
    ['v12', 'c2', 'e5', 'email.open', '{"isFirstOpen":1.0}', T],
  ].map((values): [string, Param[]] => [
    "INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at) VALUES (?, 'p1', ?, ?, ?, ?, ?)",
    values as Param[],
  ]),
  ["DELETE FROM events WHERE id IN ('v2', 'v3', 'v8')", []],
  ["INSERT INTO workflows (id, project_id, name, trigger_type, created_at, updated_at) VALUES ('w1', 'p1', 'W', 'MANUAL', 0, 0)", []],
  ["INSERT INTO workflow_steps (id, workflow_id, type, name, created_at, updated_at) VALUES ('s1', 'w1', 'TRIGGER', 'a', 0, 0), ('s2', 'w1', 'DELAY', 'b', 0, 0), ('s3', 'w1', 'EXIT', 'c', 0, 0)", []],
  ["INSERT INTO workflow_executions (id, workflow_id, project_id, status, started_at, updated_at) VALUES ('x1', 'w1', 'p1', 'RUNNING', 0, 0)", []],
  [
    `INSERT INTO workflow_step_runs (execution_id, seq, step_id, step_type, status, started_at)
     VALUES ('x1', 1, 's1', 'TRIGGER', 'COMPLETED', 0), ('x1', 2, 's2', 'DELAY', 'WAITING', 0), ('x1', 3, 's1', 'TRIGGER', 'FAILED', 0), ('x1', 4, 's3', 'EXIT', 'COMPLETED', 0)`,
    [],
  ],
  ["UPDATE workflow_step_runs SET status = 'FAILED' WHERE seq = 2", []],
  ["UPDATE workflow_step_runs SET status = 'FAILED' WHERE seq = 3", []],
  ["DELETE FROM workflow_step_runs WHERE seq = 1", []],
  ["DELETE FROM workflow_steps WHERE id = 's3'", []],
];

/** What the triggers keep. */
const COUNTED = [
  'contact_counts',
  'campaign_hourly',
  'campaign_domains',
  'campaign_links',
  'campaign_link_clickers',
  'event_counts',
  'email_daily',
  'sender_daily',
  'workflow_step_counts',
];

async function counted(db: Db): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of COUNTED) tables[table] = (await db.all(`SELECT * FROM ${table}`)).map((row) => JSON.stringify(row)).sort();
  tables.campaigns = (
    await db.all(
      `SELECT status, pending, sent_count, delivered_count, opened_count, clicked_count, bounced_count, complained_count, unsubscribed_count, deferred_count FROM campaigns`,
    )
  ).map((row) => JSON.stringify(row));
  return tables;
}

test('the triggers count alike: the same writes leave the same counters on both engines', async () => {
  const handle = new Database(':memory:');
  migrate(handle);
  const lite = sqliteDb(handle);
  try {
    for (const [sql, params] of WRITES) {
      await lite.run(sql, params);
      await pg.run(sql, params);
    }
    const expected = await counted(lite);
    for (const [table, rows] of Object.entries(expected)) assert.ok(rows.length > 0, `the writes reach ${table}`);
    assert.match(expected.campaigns![0]!, '"status":"SENT"', 'the campaign ended with its last final email');
    const actual = await counted(pg);
    for (const [table, rows] of Object.entries(expected)) assert.equal(actual[table], rows, table);
  } finally {
    await lite.close();
  }
});

test('migrating again changes nothing; two daemons migrating one empty database at once make one schema', async () => {
  const before = await postgresCatalogue(pg);
  await migratePostgres(pg);
  assert.equal(await postgresCatalogue(pg), before);
  const fresh = await createTestDatabase();
  const [a, b] = [postgresDb(fresh.url), postgresDb(fresh.url)];
  try {
    await Promise.all([migratePostgres(a), migratePostgres(b)]);
    assert.is(await postgresSchemaVersion(b), await postgresSchemaVersion(pg));
    assert.equal(await postgresCatalogue(a), before);
  } finally {
    await a.close();
    await b.close();
    await fresh.drop();
  }
});

test("another application's database, or one a newer Postmill wrote, is refused with one line and left as it is", async () => {
  const other = await createTestDatabase();
  const db = postgresDb(other.url);
  try {
    await db.exec('CREATE TABLE orders (id integer PRIMARY KEY)');
    const foreign = await migratePostgres(db).catch((error: unknown) => error);
    assert.instance(foreign, ConfigError);
    assert.is((foreign as Error).message, 'the PostgreSQL database has tables (1) but no Postmill schema: it belongs to something else; give Postmill a database of its own');
    assert.is(await db.value("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'"), 1, 'nothing written');
    await db.exec('DROP TABLE orders');
    await migratePostgres(db);
    const known = await postgresSchemaVersion(db);
    await db.run('UPDATE postmill_schema SET version = ?', [known + 1]);
    const newer = await migratePostgres(db).catch((error: unknown) => error);
    assert.instance(newer, ConfigError);
    assert.match((newer as Error).message, `has schema version ${known + 1}, written by a newer Postmill (this one knows up to ${known})`);
  } finally {
    await db.close();
    await other.drop();
  }
});

test.run();
