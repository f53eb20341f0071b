// The store's engine seam: what store functions will call, the same on SQLite and PostgreSQL. Every
// call answers a promise; SQL is written with `?` placeholders and its values in order.
import type { Dialect } from './dialect.js';

/** A value bound to a `?`. Booleans are numbers (1, 0) in the store, as SQLite keeps them. */
export type Param = string | number | bigint | Buffer | null;

/** A row by column name: integers (int8 and numeric too) as numbers, JSON as its text, bytes as Buffers, booleans as 1 or 0. */
export type Row = Record<string, unknown>;

export interface RunResult {
  /** Rows the statement inserted, updated or deleted. */
  changes: number;
}

/** Statements, inside a transaction or not. */
export interface Queryable {
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: readonly Param[]): Promise<T[]>;
  /** The first column of the first row, or undefined when there is no row. */
  value<T = unknown>(sql: string, params?: readonly Param[]): Promise<T | undefined>;
  /** A statement that answers no rows (use get or all for RETURNING). */
  run(sql: string, params?: readonly Param[]): Promise<RunResult>;
  /** Several statements without parameters (DDL, scripts). */
  exec(sql: string): Promise<void>;
  readonly dialect: Dialect;
}

/**
 * The body of a transaction does store work only: no network, no thread round trip, no waiting on
 * other requests. On SQLite the whole body runs within one turn of the event loop (a body still
 * open when the turn ends is rolled back and fails); on PostgreSQL a body may run again when the
 * server reports a serialization failure or a deadlock.
 */
export type TxBody<T> = (tx: Tx) => Promise<T>;

/** A transaction (or a savepoint inside one): valid until its tx() call settles. */
export interface Tx extends Queryable {
  /** A savepoint: fn's writes are undone alone when it throws, and the error goes on to the caller. */
  tx<T>(fn: TxBody<T>): Promise<T>;
  /**
   * Runs hook once the outermost transaction has committed (never when it or this savepoint rolls
   * back): for what may be lost, such as waking a runner. A hook that throws goes to `onError`.
   */
  afterCommit(hook: () => void): void;
}

export interface Db extends Queryable {
  tx<T>(fn: TxBody<T>): Promise<T>;
  /** Lets the calls already made finish, refuses new ones, and closes the connections. */
  close(): Promise<void>;
}

/** What both engines take besides their connection. */
export interface EngineOptions {
  /** Errors nobody awaits: an afterCommit hook that threw, a pooled connection that broke while idle. */
  onError?: (error: unknown, where: string) => void;
}

/** By default such an error is printed as a process warning: the transaction it followed has committed. */
export const defaultOnError = (error: unknown, where: string): void => {
  process.emitWarning(`${where}: ${error instanceof Error ? error.message : String(error)}`);
};
