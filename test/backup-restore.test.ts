// Backup and restore through the CLI: a backup is private (0600) and never lands on the live store,
// whatever path names it; a restore takes only a store whose schema is exactly what this version
// gives a store of its version, and refuses anything else before it replaces a byte.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, linkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../src/store/db.js';
import { runCli } from './helpers/cli.js';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon();
});
test.after(async () => d.dispose());

const cli = (...args: string[]) => runCli([...args, '--json', '--config', d.configFile]);
const storeFile = () => join(d.dataDir, 'store', 'postmill.db');
const emails = async () => (await d.request('GET', '/contacts')).body.data.map((c: { email: string }) => c.email).sort();
const mode = (file: string) => statSync(file).mode & 0o777;

test('backup writes its copy readable by its owner only, also over an existing file that others could read', async () => {
  await d.request('POST', '/contacts', { email: 'private@backup.test' });
  const fresh = join(d.dataDir, 'fresh.db');
  const r = await cli('backup', fresh);
  assert.is(r.status, 0, r.stderr);
  assert.is(mode(fresh), 0o600);
  const existing = join(d.dataDir, 'existing.db');
  writeFileSync(existing, 'an older backup', { mode: 0o644 });
  assert.is((await cli('backup', existing)).status, 0);
  assert.is(mode(existing), 0o600);
  const copy = new Database(existing, { readonly: true });
  assert.ok(copy.prepare("SELECT 1 FROM contacts WHERE email = 'private@backup.test'").get());
  copy.close();
});

test('backup refuses a target that is a file of the live store, by a relative path, a symbolic or hard link, or a dangling link', async () => {
  await d.request('POST', '/contacts', { email: 'live@backup.test' });
  const before = await emails();
  const store = storeFile();
  const symlink = join(d.dataDir, 'to-store.db');
  symlinkSync(store, symlink);
  const chain = join(d.dataDir, 'to-link.db');
  symlinkSync(symlink, chain);
  const hardlink = join(d.dataDir, 'hard.db');
  linkSync(store, hardlink);
  const toWal = join(d.dataDir, 'to-wal.db');
  symlinkSync(`${store}-wal`, toWal);
  const dangling = join(d.dataDir, 'to-journal.db');
  symlinkSync(`${store}-journal`, dangling);
  for (const target of [store, relative(process.cwd(), store), symlink, chain, hardlink, toWal, dangling, `${store}-shm`, join(d.dataDir, 'store', 'postmill.lock')]) {
    const r = await cli('backup', target);
    assert.is(r.status, 1, `${target}: ${r.stdout}`);
    assert.match(r.stderr, 'a file of the live store', target);
    assert.is(r.stderr.trim().split('\n').length, 1);
  }
  assert.not.ok(existsSync(`${store}.partial`), 'refused before anything was written beside the store');
  assert.equal(await emails(), before, 'the daemon goes on with its store');
});

/** A copy of a good backup, changed by `craft`. */
function crafted(good: string, name: string, craft: (db: Database.Database) => void): string {
  const file = join(d.dataDir, `${name}.db`);
  copyFileSync(good, file);
  const db = new Database(file);
  craft(db);
  db.close();
  return file;
}

test('restore refuses a backup whose schema is not exactly this version\'s, before replacing anything; a genuine older store is taken', async () => {
  await d.request('POST', '/contacts', { email: 'current@backup.test' });
  const good = join(d.dataDir, 'good.db');
  assert.is((await cli('backup', good)).status, 0);
  await d.request('POST', '/contacts', { email: 'after-backup@backup.test' });
  const current = await emails();
  await d.stop();

  const version = (new Database(good, { readonly: true }).pragma('user_version', { simple: true }) as number);
  const onlyProjects = join(d.dataDir, 'only-projects.db');
  const bare = new Database(onlyProjects);
  bare.exec('CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT)');
  bare.close();
  const cases: [string, string, RegExp][] = [
    [
      crafted(good, 'trigger', (db) => db.exec("CREATE TRIGGER mint AFTER INSERT ON contacts BEGIN INSERT INTO settings (name, value) VALUES ('minted', NEW.email); END")),
      'a trigger added',
      /unexpected trigger mint/,
    ],
    [onlyProjects, 'only a projects table', /not a Postmill store \(schema version 0/],
    [crafted(onlyProjects, 'only-projects-versioned', (db) => db.pragma(`user_version = ${version}`)), 'only projects, with a version', /missing table/],
    [crafted(good, 'view', (db) => db.exec('CREATE VIEW everyone AS SELECT email FROM contacts')), 'a view added', /unexpected view everyone/],
    [crafted(good, 'index', (db) => db.exec('CREATE INDEX sneaky ON contacts(email)')), 'an index added', /unexpected index sneaky/],
    [crafted(good, 'table', (db) => db.exec('CREATE TABLE extra (x)')), 'a table added', /unexpected table extra/],
    [crafted(good, 'column', (db) => db.exec('ALTER TABLE contacts ADD COLUMN note TEXT')), 'a column added', /table contacts is defined otherwise/],
    [crafted(good, 'dropped', (db) => db.exec('DROP INDEX jobs_due')), 'an index dropped', /missing index jobs_due/],
  ];
  for (const [file, what, expected] of cases) {
    const r = await cli('restore', file);
    assert.is(r.status, 1, `${what}: ${r.stdout}`);
    assert.match(r.stderr, expected, what);
    assert.is(r.stderr.trim().split('\n').length, 1, what);
  }
  await d.restart();
  assert.equal(await emails(), current, 'every refusal left the store as it was');
  await d.stop();

  assert.is((await cli('restore', good)).status, 0);
  await d.restart();
  assert.ok((await emails()).includes('current@backup.test'));
  await d.stop();

  // a store of an older version, as that version made it: restored, and migrated at the next start
  const older = join(d.dataDir, 'older.db');
  const old = new Database(older);
  migrate(old, 50);
  old.close();
  const r = await cli('restore', older);
  assert.is(r.status, 0, r.stderr);
  await d.restart();
  assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
});

test.run();
