// The engine seam over node-postgres: a pool of connections. A statement outside a transaction
// takes any free connection; a transaction holds one from BEGIN to COMMIT and is run again, whole,
// when the server reports a serialization failure or a deadlock (its body does store work only, so
// running it again is safe).
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultOnError, type Db, type EngineOptions, type Param, type Row, type RunResult, type TxBody } from './db.js';
import { numberedPlaceholders } from './placeholders.js';
import { postgresDialect } from './postgres-dialect.js';
import { storeTypes } from './postgres-types.js';
import { runHooks, TxScope, type Statements } from './scope.js';

/** serialization_failure, deadlock_detected: the server's own advice is to run the transaction again. */
const RETRIED = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

const mustRetry = (error: unknown) => error instanceof Error && RETRIED.has((error as { code?: string }).code ?? '');

export interface PostgresOptions extends EngineOptions {
  /** Connections in the pool, at most. */
  connections?: number;
}

/** Statements on a pool (any free connection) or on the one connection of a transaction. */
function statementsOf(on: pg.Pool | pg.PoolClient): Statements {
  const rows = async (sql: string, params: readonly Param[]) => (await on.query<Row>(numberedPlaceholders(sql), params as Param[])).rows;
  return {
    get: async (sql, params) => (await rows(sql, params))[0],
    all: rows,
    value: async (sql, params) => (await on.query<unknown[]>({ text: numberedPlaceholders(sql), values: params as Param[], rowMode: 'array' })).rows[0]?.[0],
    run: async (sql, params) => ({ changes: (await on.query(numberedPlaceholders(sql), params as Param[])).rowCount ?? 0 }),
    exec: async (sql) => void (await on.query(sql)),
  };
}

type Attempt<T> = { ok: true; value: T; hooks: (() => void)[] } | { ok: false; error: unknown };

class PostgresDb implements Db {
  readonly dialect = postgresDialect;
  readonly #pool: pg.Pool;
  readonly #statements: Statements;
  readonly #onError: (error: unknown, where: string) => void;
  #closing = false;
  /** Calls under way: close() lets them finish before it ends the pool (which would strand one still connecting). */
  readonly #underWay = new Set<Promise<unknown>>();

  constructor(url: string, options: PostgresOptions) {
    this.#onError = options.onError ?? defaultOnError;
    this.#pool = new pg.Pool({ connectionString: url, max: options.connections ?? 10, types: storeTypes });
    // a connection that breaks while idle leaves the pool; the next call opens another
    this.#pool.on('error', (error) => this.#onError(error, 'an idle PostgreSQL connection failed'));
    this.#statements = statementsOf(this.#pool);
  }

  #open<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closing) return Promise.reject(new Error('the store is closed'));
    const call = work();
    this.#underWay.add(call);
    const forget = () => void this.#underWay.delete(call);
    call.then(forget, forget);
    return call;
  }

  get<T = Row>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#open(() => this.#statements.get(sql, params) as Promise<T | undefined>);
  }

  all<T = Row>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return this.#open(() => this.#statements.all(sql, params) as Promise<T[]>);
  }

  value<T = unknown>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#open(() => this.#statements.value(sql, params) as Promise<T | undefined>);
  }

  run(sql: string, params: readonly Param[] = []): Promise<RunResult> {
    return this.#open(() => this.#statements.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.#open(() => this.#statements.exec(sql));
  }

  tx<T>(fn: TxBody<T>): Promise<T> {
    return this.#open(async () => {
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await this.#attempt(fn);
        if (outcome.ok) {
          runHooks(outcome.hooks, this.#onError);
          return outcome.value;
        }
        if (!mustRetry(outcome.error) || attempt === ATTEMPTS) throw outcome.error;
        // the transactions that collided should not meet again at once
        await sleep(Math.random() * 10 * attempt);
      }
    });
  }

  async #attempt<T>(fn: TxBody<T>): Promise<Attempt<T>> {
    const client = await this.#pool.connect();
    const root = { mustRetry, retryFor: null as unknown };
    const scope = new TxScope(statementsOf(client), this.dialect, root);
    // a connection whose ROLLBACK failed is in an unknown state: it is closed, not pooled again
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const value = await fn(scope);
      // a serialization failure the body caught in a savepoint still dooms the transaction
      if (root.retryFor !== null) throw root.retryFor;
      await client.query('COMMIT');
      return { ok: true, value, hooks: scope.end() };
    } catch (error) {
      scope.end();
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      return { ok: false, error };
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    await Promise.allSettled(this.#underWay);
    await this.#pool.end();
  }
}

/** The engine seam over the PostgreSQL database at `url` (postgres://user:pass@host:port/db). */
export function postgresDb(url: string, options: PostgresOptions = {}): Db {
  return new PostgresDb(url, options);
}
