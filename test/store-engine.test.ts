// The store's engine seam (src/store/engine/) on both engines: the same cases against SQLite (a
// temporary file) and PostgreSQL (a database of this file's own), then what only one of them does:
// SQLite's callers waiting for its one connection, PostgreSQL's transactions run again.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Db, Tx } from '../src/store/engine/db.js';
import { postgresDb } from '../src/store/engine/postgres.js';
import { sqliteDb, TransactionHeldError } from '../src/store/engine/sqlite.js';
import { createTestDatabase, type TestDatabase } from './helpers/postgres.js';

interface Engine {
  name: string;
  open(onError?: (error: unknown, where: string) => void): Promise<Db>;
  done(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'postmill-engine-'));
let files = 0;

const sqliteEngine: Engine = {
  name: 'sqlite',
  open: async (onError) => {
    const handle = new Database(join(dir, `store-${++files}.db`));
    handle.pragma('journal_mode = WAL');
    return sqliteDb(handle, onError ? { onError } : {});
  },
  done: async () => rmSync(dir, { recursive: true, force: true }),
};

let database: TestDatabase | null = null;
const postgresEngine: Engine = {
  name: 'postgres',
  open: async (onError) => {
    database ??= await createTestDatabase();
    return postgresDb(database.url, onError ? { onError } : {});
  },
  done: async () => {
    await database?.drop();
    database = null;
  },
};

/** The table every case writes, made anew: the bytes column's type is the one name the engines spell apart. */
async function things(db: Db): Promise<void> {
  const bytes = db.dialect.engine === 'sqlite' ? 'BLOB' : 'bytea';
  await db.exec(`DROP TABLE IF EXISTS things; CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT NOT NULL, n BIGINT NOT NULL DEFAULT 0, doc TEXT, bytes ${bytes})`);
}

const count = (db: Db) => db.value<number>('SELECT COUNT(*) FROM things');
const names = async (db: Db) => (await db.all<{ name: string }>('SELECT name FROM things ORDER BY id')).map((r) => r.name);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function both(engine: Engine): void {
  const cases = suite(`engine: ${engine.name}`);
  let db: Db;
  let closed = false;
  cases.before.each(async () => {
    db = await engine.open();
    closed = false;
    await things(db);
  });
  cases.after.each(async () => {
    if (!closed) await db.close();
  });

  cases('statements: rows, one value, changes, values of every kind bound and read back alike', async () => {
    const big = 2 ** 40;
    const run = await db.run('INSERT INTO things (id, name, n, doc, bytes) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)', [
      1, 'one', BigInt(big), null, Buffer.from([0, 1, 255]),
      2, 'two', 7, '{"a":1}', null,
    ]);
    assert.is(run.changes, 2);
    assert.equal(await db.get('SELECT id, name, n, doc, bytes FROM things WHERE id = ?', [1]), { id: 1, name: 'one', n: big, doc: null, bytes: Buffer.from([0, 1, 255]) });
    assert.equal(await db.all('SELECT id, n FROM things ORDER BY id'), [{ id: 1, n: big }, { id: 2, n: 7 }]);
    assert.is(await count(db), 2);
    assert.is(await db.value('SELECT name FROM things WHERE id = ?', [3]), undefined);
    assert.is(await db.get('SELECT name FROM things WHERE id = ?', [3]), undefined);
    assert.is((await db.run('UPDATE things SET n = n + 1 WHERE id > ?', [0])).changes, 2);
    // comparisons answer 1 or 0 on both, as SQLite keeps booleans
    assert.equal(await db.get('SELECT 1 = 1 AS yes, 1 = 2 AS no'), { yes: 1, no: 0 });
    // a ? in a string, a quoted name or a comment is text, not a placeholder
    assert.equal(await db.get(`SELECT '?' AS "a?", ? AS v -- is this one?\n`, ['x']), { 'a?': '?', v: 'x' });
    await db.exec("INSERT INTO things (id, name) VALUES (3, 'three'); INSERT INTO things (id, name) VALUES (4, 'four')");
    assert.equal(await names(db), ['one', 'two', 'three', 'four']);
  });

  cases('a transaction commits its writes together, or rolls them all back and passes its error on', async () => {
    assert.is(
      await db.tx(async (tx) => {
        await tx.run("INSERT INTO things (id, name) VALUES (1, 'a')");
        await tx.run("INSERT INTO things (id, name) VALUES (2, 'b')");
        return 'done';
      }),
      'done',
    );
    const failure = new Error('the body failed');
    const refused = await db
      .tx(async (tx) => {
        await tx.run("INSERT INTO things (id, name) VALUES (3, 'c')");
        throw failure;
      })
      .catch((error: unknown) => error);
    assert.is(refused, failure);
    assert.equal(await names(db), ['a', 'b']);
    // a statement that fails fails its transaction
    const duplicate = await db.tx((tx) => tx.run("INSERT INTO things (id, name) VALUES (1, 'again')")).catch((error: unknown) => error);
    assert.instance(duplicate, Error);
    assert.equal(await names(db), ['a', 'b']);
  });

  cases('savepoints: a nested tx() that throws undoes its own writes only, at any depth', async () => {
    await db.tx(async (tx) => {
      await tx.run("INSERT INTO things (id, name) VALUES (1, 'outer')");
      await tx
        .tx(async (inner) => {
          await inner.run("INSERT INTO things (id, name) VALUES (2, 'inner')");
          await inner.tx(async (deepest) => deepest.run("INSERT INTO things (id, name) VALUES (3, 'deepest')"));
          throw new Error('undo inner and deepest');
        })
        .catch(() => undefined);
      await tx.tx(async (kept) => {
        await kept.run("INSERT INTO things (id, name) VALUES (4, 'kept')");
        await kept.tx((failing) => failing.run("INSERT INTO things (id, name) VALUES (1, 'a duplicate')")).catch(() => undefined);
      });
    });
    assert.equal(await names(db), ['outer', 'kept']);
  });

  cases('afterCommit hooks run in order once the outermost transaction committed; never for what rolled back', async () => {
    const ran: string[] = [];
    let seen: Promise<number | undefined> | null = null;
    await db.tx(async (tx) => {
      await tx.run("INSERT INTO things (id, name) VALUES (1, 'a')");
      tx.afterCommit(() => {
        ran.push('first');
        // the commit is visible to everyone by now
        seen = count(db);
      });
      await tx.tx(async (kept) => kept.afterCommit(() => ran.push('kept savepoint')));
      await tx
        .tx(async (undone) => {
          undone.afterCommit(() => ran.push('rolled-back savepoint'));
          throw new Error('undo');
        })
        .catch(() => undefined);
      tx.afterCommit(() => ran.push('last'));
      assert.equal(ran, [], 'nothing before the commit');
    });
    assert.equal(ran, ['first', 'kept savepoint', 'last']);
    assert.is(await seen!, 1);
    await db
      .tx(async (tx) => {
        tx.afterCommit(() => ran.push('rolled-back transaction'));
        throw new Error('undo');
      })
      .catch(() => undefined);
    assert.equal(ran, ['first', 'kept savepoint', 'last']);
  });

  cases('a hook that throws goes to onError; the other hooks run and the transaction stands', async () => {
    const errors: string[] = [];
    const reporting = await engine.open((error, where) => errors.push(`${where}: ${(error as Error).message}`));
    try {
      await things(reporting);
      const ran: string[] = [];
      const answer = await reporting.tx(async (tx) => {
        await tx.run("INSERT INTO things (id, name) VALUES (1, 'a')");
        tx.afterCommit(() => {
          throw new Error('the hook broke');
        });
        tx.afterCommit(() => ran.push('second'));
        return 'committed';
      });
      assert.is(answer, 'committed');
      assert.equal(ran, ['second']);
      assert.equal(errors, ['an afterCommit hook failed: the hook broke']);
      assert.is(await count(reporting), 1);
    } finally {
      await reporting.close();
    }
  });

  cases('a handle is refused once its transaction is over, and while a savepoint under it is open', async () => {
    let leaked: Tx | null = null;
    await db.tx(async (tx) => {
      leaked = tx;
      await tx.tx(async () => {
        const parent = await tx.value('SELECT 1').catch((error: Error) => error.message);
        assert.match(String(parent), 'a savepoint of this transaction is open');
      });
    });
    const late = await leaked!.run("INSERT INTO things (id, name) VALUES (9, 'late')").catch((error: Error) => error.message);
    assert.match(String(late), 'this transaction is over');
    assert.throws(() => leaked!.afterCommit(() => undefined), /this transaction is over/);
    assert.is(await count(db), 0);
  });

  cases('dialect: JSON strings and numbers by path, ASCII-only case folding, upserts, the time in ms', async () => {
    const d = db.dialect;
    const doc = JSON.stringify({ plan: 'pro', seats: 12, ratio: 0.5, flag: true, 'we"ird.key': 'odd', nested: { city: 'Oslo', zip: 1234 } });
    await db.run('INSERT INTO things (id, name, doc) VALUES (1, ?, ?)', ['Ann', doc]);
    const row = await db.get(
      `SELECT ${d.jsonText('doc', ['plan'])} AS plan, ${d.jsonText('doc', ['seats'])} AS "seatsAsText", ${d.jsonNumber('doc', ['seats'])} AS seats,
              ${d.jsonNumber('doc', ['ratio'])} AS ratio, ${d.jsonNumber('doc', ['plan'])} AS "planAsNumber", ${d.jsonText('doc', ['flag'])} AS flag,
              ${d.jsonText('doc', ['we"ird.key'])} AS odd, ${d.jsonText('doc', ['nested', 'city'])} AS city, ${d.jsonNumber('doc', ['nested', 'zip'])} AS zip,
              ${d.jsonText('doc', ['missing'])} AS missing
       FROM things WHERE id = 1`,
    );
    assert.equal(row, { plan: 'pro', seatsAsText: null, seats: 12, ratio: 0.5, planAsNumber: null, flag: null, odd: 'odd', city: 'Oslo', zip: 1234, missing: null });
    const folded = await db.get(
      `SELECT ${d.equalsIgnoringCase('name', '?')} AS ascii, ${d.equalsIgnoringCase("'ÉCOLE'", "'école'")} AS beyond, ${d.equalsIgnoringCase("'Ann'", "'Anne'")} AS other FROM things WHERE id = 1`,
      ['aNN'],
    );
    assert.equal(folded, { ascii: 1, beyond: 0, other: 0 });
    const upsert = d.upsert({ table: 'things', columns: ['id', 'name', 'n'], key: ['id'], set: { name: 'replace', n: 'add' } });
    await db.run(upsert, [2, 'first', 5]);
    await db.run(upsert, [2, 'second', 3]);
    const ignore = d.upsert({ table: 'things', columns: ['id', 'name'], key: ['id'], set: {} });
    assert.is((await db.run(ignore, [2, 'ignored'])).changes, 0);
    assert.equal(await db.get('SELECT name, n FROM things WHERE id = 2'), { name: 'second', n: 8 });
    const before = Date.now();
    const now = await db.value<number>(`SELECT ${d.nowMs}`);
    const after = Date.now();
    assert.ok(Number.isInteger(now) && now! >= before - 1 && now! <= after + 1, `${before} <= ${now} <= ${after}`);
  });

  cases('close lets the calls made finish, then refuses new ones', async () => {
    const pending = db.run("INSERT INTO things (id, name) VALUES (1, 'a')");
    await db.close();
    closed = true;
    assert.is((await pending).changes, 1);
    assert.match(String(await db.value('SELECT 1').catch((error: Error) => error.message)), 'the store is closed');
  });

  cases.after(() => engine.done());
  cases.run();
}

/** What only SQLite does: one connection, so callers wait for a transaction; a body must not outlive its turn. */
function sqliteOnly(): void {
  const cases = suite('engine: sqlite, one connection');
  const local = mkdtempSync(join(tmpdir(), 'postmill-engine-sqlite-'));
  let db: Db;
  cases.before.each(async () => {
    db = sqliteDb(new Database(join(local, `store-${++files}.db`)));
    await things(db);
  });
  cases.after.each(() => db.close());
  cases.after(() => rmSync(local, { recursive: true, force: true }));

  cases('a caller outside an open transaction waits for it, in order, and sees it whole', async () => {
    const seen: Promise<unknown>[] = [];
    await db.tx(async (tx) => {
      await tx.run("INSERT INTO things (id, name) VALUES (1, 'a')");
      // not awaited by the body: callers elsewhere in the program, arriving while it is open
      seen.push(count(db), db.tx(async (next) => next.run("INSERT INTO things (id, name) VALUES (2, 'b')")).then(() => count(db)));
      await tx.run("INSERT INTO things (id, name) VALUES (3, 'c')");
    });
    assert.equal(await Promise.all(seen), [2, 3]);
    await db
      .tx(async (tx) => {
        await tx.run("INSERT INTO things (id, name) VALUES (4, 'd')");
        seen.push(count(db));
        throw new Error('undo');
      })
      .catch(() => undefined);
    assert.is(await seen[2], 3, 'waited, and saw the rollback');
  });

  cases('a body that awaits something other than the store is rolled back when its turn ends, and fails', async () => {
    const held = await db
      .tx(async (tx) => {
        await tx.run("INSERT INTO things (id, name) VALUES (1, 'a')");
        await new Promise((resolve) => setImmediate(resolve));
        await tx.run("INSERT INTO things (id, name) VALUES (2, 'b')");
      })
      .catch((error: unknown) => error);
    assert.instance(held, TransactionHeldError);
    assert.is(await count(db), 0);
    // a body that calls the Db instead of its handle would wait for itself: it fails the same way, and the store goes on
    const selfWaiting = await db.tx(async () => count(db)).catch((error: unknown) => error);
    assert.instance(selfWaiting, TransactionHeldError);
    await db.run("INSERT INTO things (id, name) VALUES (3, 'c')");
    assert.equal(await names(db), ['c']);
  });

  cases.run();
}

/** What only PostgreSQL does: a transaction that meets a deadlock is run again, whole. */
function postgresOnly(): void {
  const cases = suite('engine: postgres, transactions run again');
  let db: Db;
  cases.before.each(async () => {
    db = await postgresEngine.open();
    await things(db);
    await db.run("INSERT INTO things (id, name) VALUES (1, 'a'), (2, 'b')");
  });
  cases.after.each(() => db.close());
  cases.after(() => postgresEngine.done());

  /** Two transactions taking the two rows in opposite orders: the server ends one of them with a deadlock. */
  async function collide(second: (tx: Tx, sql: string) => Promise<unknown>): Promise<number> {
    let bodies = 0;
    const first = { a: deferred(), b: deferred() };
    const body = (mine: number, theirs: number, add: number, locked: ReturnType<typeof deferred>, wait: ReturnType<typeof deferred>) =>
      db.tx(async (tx) => {
        bodies += 1;
        await tx.run('UPDATE things SET n = n + ? WHERE id = ?', [add, mine]);
        locked.resolve();
        await wait.promise;
        await second(tx, `UPDATE things SET n = n + ${add} WHERE id = ${theirs}`);
      });
    await Promise.all([body(1, 2, 1, first.a, first.b), body(2, 1, 10, first.b, first.a)]);
    return bodies;
  }

  cases('a deadlock: the transaction the server ended runs again and commits; each write lands once', async () => {
    const bodies = await collide((tx, sql) => tx.run(sql));
    assert.is(bodies, 3);
    assert.equal(await db.all('SELECT id, n FROM things ORDER BY id'), [{ id: 1, n: 11 }, { id: 2, n: 11 }]);
  });

  cases('a deadlock inside a savepoint whose error the body caught still runs the whole transaction again', async () => {
    const bodies = await collide((tx, sql) => tx.tx((savepoint) => savepoint.run(sql)).catch(() => undefined));
    assert.is(bodies, 3);
    assert.equal(await db.all('SELECT id, n FROM things ORDER BY id'), [{ id: 1, n: 11 }, { id: 2, n: 11 }]);
  });

  cases('an integer beyond 2^53 is refused rather than read as another number; jsonb is read as its text', async () => {
    const refused = await db.value('SELECT 9007199254740993::int8').catch((error: Error) => error.message);
    assert.match(String(refused), 'beyond what a JavaScript number holds exactly');
    assert.is(await db.value("SELECT '{\"a\": [1, 2]}'::jsonb"), '{"a": [1, 2]}');
  });

  cases.run();
}

both(sqliteEngine);
sqliteOnly();
both(postgresEngine);
postgresOnly();
