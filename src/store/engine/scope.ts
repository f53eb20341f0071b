// A transaction as its body sees it, the same on both engines: savepoints for nested tx() calls,
// afterCommit hooks kept until the outermost commit, and a handle that refuses use once its
// transaction (or savepoint) is over, so a store call that outlived its body fails loudly.
import type { Param, Row, RunResult, Tx, TxBody } from './db.js';
import type { Dialect } from './dialect.js';

/** The statements of the connection a transaction holds. */
export interface Statements {
  get(sql: string, params: readonly Param[]): Promise<Row | undefined>;
  all(sql: string, params: readonly Param[]): Promise<Row[]>;
  value(sql: string, params: readonly Param[]): Promise<unknown>;
  run(sql: string, params: readonly Param[]): Promise<RunResult>;
  exec(sql: string): Promise<void>;
}

/** What all the scopes of one transaction share. */
export interface TxRoot {
  /** Errors after which the engine runs the whole transaction again (PostgreSQL's 40001 and 40P01). */
  mustRetry(error: unknown): boolean;
  /** Such an error raised inside a savepoint: the transaction is retried even when the body caught it. */
  retryFor: unknown;
}

export class TxScope implements Tx {
  #hooks: (() => void)[] = [];
  #savepoint: TxScope | null = null;
  #over = false;

  constructor(
    private readonly statements: Statements,
    readonly dialect: Dialect,
    private readonly root: TxRoot,
    private readonly depth = 0,
  ) {}

  /** Why this handle may not be used now, if it may not. */
  #refusal(): Error | null {
    if (this.#over) return new Error('this transaction is over: a store call outlived the tx() body it belonged to (a missing await?)');
    if (this.#savepoint) return new Error('a savepoint of this transaction is open: use its handle until its tx() call settles');
    return null;
  }

  #guarded<T>(work: () => Promise<T>): Promise<T> {
    const refusal = this.#refusal();
    return refusal ? Promise.reject(refusal) : work();
  }

  get<T = Row>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#guarded(() => this.statements.get(sql, params) as Promise<T | undefined>);
  }

  all<T = Row>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return this.#guarded(() => this.statements.all(sql, params) as Promise<T[]>);
  }

  value<T = unknown>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return this.#guarded(() => this.statements.value(sql, params) as Promise<T | undefined>);
  }

  run(sql: string, params: readonly Param[] = []): Promise<RunResult> {
    return this.#guarded(() => this.statements.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.#guarded(() => this.statements.exec(sql));
  }

  afterCommit(hook: () => void): void {
    const refusal = this.#refusal();
    if (refusal) throw refusal;
    this.#hooks.push(hook);
  }

  tx<T>(fn: TxBody<T>): Promise<T> {
    return this.#guarded(() => this.#inSavepoint(fn));
  }

  async #inSavepoint<T>(fn: TxBody<T>): Promise<T> {
    // one savepoint open per level at a time, so the level names it
    const name = `sp${this.depth + 1}`;
    const savepoint = new TxScope(this.statements, this.dialect, this.root, this.depth + 1);
    this.#savepoint = savepoint;
    try {
      await this.statements.run(`SAVEPOINT ${name}`, []);
      let value: T;
      try {
        value = await fn(savepoint);
      } catch (error) {
        if (this.root.mustRetry(error)) this.root.retryFor ??= error;
        savepoint.end();
        await this.statements.run(`ROLLBACK TO ${name}`, []);
        await this.statements.run(`RELEASE ${name}`, []);
        throw error;
      }
      await this.statements.run(`RELEASE ${name}`, []);
      this.#hooks.push(...savepoint.end());
      return value;
    } finally {
      savepoint.end();
      this.#savepoint = null;
    }
  }

  /** Ends this handle (and any savepoint still open under it); answers the hooks to run if its transaction commits. */
  end(): (() => void)[] {
    this.#over = true;
    this.#savepoint?.end();
    const hooks = this.#hooks;
    this.#hooks = [];
    return hooks;
  }
}

/** Runs a committed transaction's hooks in order; one that throws stops none of the others. */
export function runHooks(hooks: readonly (() => void)[], onError: (error: unknown, where: string) => void): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch (error) {
      onError(error, 'an afterCommit hook failed');
    }
  }
}
