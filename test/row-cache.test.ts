import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, storeFile, type Db } from '../src/store/db.js';
import { cachedRow } from '../src/store/row-cache.js';

const dirs: string[] = [];
test.after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function fresh(): { db: Db; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-row-cache-'));
  dirs.push(dir);
  const db = openStore(dir);
  db.prepare("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('p1', 'first', 0, 0)").run();
  return { db, dir };
}

/** A cached read of the project's name that counts how often it really reads. */
function nameReader(db: Db) {
  let loads = 0;
  const read = () =>
    cachedRow(db, ['projects'], 'name:p1', () => {
      loads++;
      return (db.prepare("SELECT name FROM projects WHERE id = 'p1'").pluck().get() as string | undefined) ?? null;
    });
  return { read, loads: () => loads };
}

test('a row is read once, then served from memory', () => {
  const { db } = fresh();
  const names = nameReader(db);
  assert.is(names.read(), 'first');
  assert.is(names.read(), 'first');
  assert.is(names.loads(), 1);
  db.close();
});

test('a write of this connection to the table is seen at once: update, delete, insert', () => {
  const { db } = fresh();
  const names = nameReader(db);
  names.read();
  db.prepare("UPDATE projects SET name = 'renamed' WHERE id = 'p1'").run();
  assert.is(names.read(), 'renamed');
  db.prepare("DELETE FROM projects WHERE id = 'p1'").run();
  assert.is(names.read(), null);
  db.prepare("INSERT INTO projects (id, name, created_at, updated_at) VALUES ('p1', 'again', 0, 0)").run();
  assert.is(names.read(), 'again', 'a miss is never kept');
  db.close();
});

test('a write of another process (another connection) is seen from the next turn of the event loop', async () => {
  const { db, dir } = fresh();
  const names = nameReader(db);
  names.read();
  const other = new Database(storeFile(dir));
  other.prepare("UPDATE projects SET name = 'from the CLI' WHERE id = 'p1'").run();
  other.close();
  await new Promise((r) => setImmediate(r));
  assert.is(names.read(), 'from the CLI');
  db.close();
});

test('inside a transaction it reads through, and keeps nothing that may roll back', () => {
  const { db } = fresh();
  const names = nameReader(db);
  names.read();
  assert.throws(() =>
    db.transaction(() => {
      db.prepare("UPDATE projects SET name = 'uncommitted' WHERE id = 'p1'").run();
      assert.is(names.read(), 'uncommitted');
      throw new Error('roll back');
    })(),
  );
  assert.is(names.read(), 'first');
  db.close();
});

test('writes to tables it does not watch leave it alone', () => {
  const { db } = fresh();
  const names = nameReader(db);
  names.read();
  db.prepare("INSERT INTO settings (name, value) VALUES ('x', 'y')").run();
  names.read();
  assert.is(names.loads(), 1);
  db.close();
});

test.run();
