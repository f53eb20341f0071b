// The engine seam over better-sqlite3. Statements run synchronously on the one connection; a
// transaction is one short synchronous SQLite transaction: while it is open every other caller of
// this Db waits its turn (in order), and a body still open when the event loop's turn ends (it
// awaited something that was not the store) is rolled back and fails, never holding the connection.
import type Database from 'better-sqlite3';
import { defaultOnError, type Db, type EngineOptions, type Param, type Row, type RunResult, type TxBody } from './db.js';
import { runHooks, TxScope, type Statements } from './scope.js';
import { sqliteDialect } from './sqlite-dialect.js';

export class TransactionHeldError extends Error {
  constructor() {
    super('a SQLite transaction was still open when its turn of the event loop ended: its body awaited something other than the store, and was rolled back');
  }
}

/** A synchronous call as a settled promise. */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Statements on the connection, each prepared once: rows as objects, and the first column alone for value(). */
function statementsOf(handle: Database.Database): Statements {
  const rows = new Map<string, Database.Statement>();
  const firsts = new Map<string, Database.Statement>();
  const prepared = (sql: string) => rows.get(sql) ?? rows.set(sql, handle.prepare(sql)).get(sql)!;
  const plucked = (sql: string) => firsts.get(sql) ?? firsts.set(sql, handle.prepare(sql).pluck()).get(sql)!;
  return {
    get: (sql, params) => settled(() => prepared(sql).get(...params) as Row | undefined),
    all: (sql, params) => settled(() => prepared(sql).all(...params) as Row[]),
    value: (sql, params) => settled(() => plucked(sql).get(...params)),
    run: (sql, params) => settled(() => ({ changes: prepared(sql).run(...params).changes })),
    exec: (sql) => settled(() => void handle.exec(sql)),
  };
}

class SqliteDb implements Db {
  readonly dialect = sqliteDialect;
  readonly #handle: Database.Database;
  readonly #statements: Statements;
  readonly #onError: (error: unknown, where: string) => void;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;
  /** Calls made while a transaction was open (or before earlier waiting ones), in order. */
  #waiting: (() => void)[] = [];
  #inTransaction = false;
  #closing = false;

  constructor(handle: Database.Database, options: EngineOptions) {
    this.#handle = handle;
    this.#statements = statementsOf(handle);
    this.#onError = options.onError ?? defaultOnError;
    // IMMEDIATE: the write lock is taken at the start, so no statement of the body meets SQLITE_BUSY
    this.#begin = handle.prepare('BEGIN IMMEDIATE');
    this.#commit = handle.prepare('COMMIT');
    this.#rollback = handle.prepare('ROLLBACK');
  }

  /** Runs work now, or after the open transaction and the calls waiting before it. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closing) return Promise.reject(new Error('the store is closed'));
    if (!this.#inTransaction && this.#waiting.length === 0) return work();
    return new Promise<T>((resolve, reject) => this.#waiting.push(() => void work().then(resolve, reject)));
  }

  /** After a transaction: the waiting calls run in order until one opens the next transaction. */
  #release(): void {
    this.#inTransaction = false;
    while (!this.#inTransaction && this.#waiting.length > 0) this.#waiting.shift()!();
  }

  get<T = Row>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#inTurn(() => this.#statements.get(sql, params) as Promise<T | undefined>);
  }

  all<T = Row>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return this.#inTurn(() => this.#statements.all(sql, params) as Promise<T[]>);
  }

  value<T = unknown>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#inTurn(() => this.#statements.value(sql, params) as Promise<T | undefined>);
  }

  run(sql: string, params: readonly Param[] = []): Promise<RunResult> {
    return this.#inTurn(() => this.#statements.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.#inTurn(() => this.#statements.exec(sql));
  }

  tx<T>(fn: TxBody<T>): Promise<T> {
    return this.#inTurn(() => this.#transaction(fn));
  }

  #transaction<T>(fn: TxBody<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#inTransaction = true;
      const scope = new TxScope(this.#statements, this.dialect, { mustRetry: () => false, retryFor: null });
      let open = true;
      /** Commits or rolls back, ends the body's handle and lets the waiting calls in; answers the hooks to run. */
      const finish = (commit: boolean): (() => void)[] => {
        open = false;
        clearImmediate(turnEnd);
        const hooks = scope.end();
        try {
          if (commit) this.#commit.run();
        } finally {
          // a failed COMMIT can leave the transaction open
          if (this.#handle.inTransaction) this.#rollback.run();
          this.#release();
        }
        return commit ? hooks : [];
      };
      // microtasks (every store call of the body) all run before this: only a foreign await outlives it
      const turnEnd = setImmediate(() => {
        if (!open) return;
        finish(false);
        reject(new TransactionHeldError());
      });
      let body: Promise<T>;
      try {
        this.#begin.run();
        body = fn(scope);
      } catch (error) {
        body = Promise.reject(error as Error);
      }
      body.then(
        (value) => {
          if (!open) return;
          let hooks: (() => void)[];
          try {
            hooks = finish(true);
          } catch (error) {
            reject(error as Error);
            return;
          }
          runHooks(hooks, this.#onError);
          resolve(value);
        },
        (error: unknown) => {
          if (!open) return;
          finish(false);
          reject(error as Error);
        },
      );
    });
  }

  close(): Promise<void> {
    const closed = this.#inTurn(() => settled(() => void this.#handle.close()));
    this.#closing = true;
    return closed;
  }
}

/** The engine seam over an open better-sqlite3 connection (migrated by src/store/db.ts); close() closes it. */
export function sqliteDb(handle: Database.Database, options: EngineOptions = {}): Db {
  return new SqliteDb(handle, options);
}
