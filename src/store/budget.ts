// Time budgets of statements. better-sqlite3 has no progress handler and no interrupt, so a
// statement that must end in time calls budget() on the rows it visits: 1 until the deadline set
// for the statements running on its connection, then an error that aborts the statement. The
// function is registered non-deterministic: SQLite evaluates it for every row and never once up
// front (only deterministic constant terms are hoisted out of the loop). It costs about 50 ns a
// row (a count over 241,000 contacts: 12 -> 25 ms), a few percent of any filter worth stopping.
import type { Database as Db } from 'better-sqlite3';

/** Thrown by budget() inside a statement that has run past its deadline. */
export class BudgetSpent extends Error {}

const deadlines = new WeakMap<Db, { at: number }>();

/** Makes budget() callable on the connection; it answers 1 until `withinBudget` sets a deadline. */
export function installBudget(db: Db): void {
  const deadline = { at: Infinity };
  deadlines.set(db, deadline);
  db.function('budget', { deterministic: false }, () => {
    if (Date.now() > deadline.at) throw new BudgetSpent('the statement ran past its time budget');
    return 1;
  });
}

/** Runs `run`, whose statements on `db` that call budget() end with BudgetSpent once `run` has taken `budgetMs`. */
export function withinBudget<T>(db: Db, budgetMs: number, run: () => T): T {
  const deadline = deadlines.get(db);
  if (!deadline) throw new Error('budget() is not installed on this connection');
  const outer = deadline.at;
  deadline.at = Math.min(outer, Date.now() + budgetMs);
  try {
    return run();
  } finally {
    deadline.at = outer;
  }
}

export type ReadMode = 'get' | 'all' | 'column';

/** One read: a statement that calls budget(), its parameters, what to answer, and how long it may run. */
export interface ReadRequest {
  text: string;
  params: unknown[];
  /** The first row, every row, or every row's first column. */
  mode: ReadMode;
  budgetMs: number;
}

export type ReadAnswer = { result: unknown } | { timeout: true } | { error: string };

/** Runs a read on `db` under its budget: the reader threads' work, and the inline reader's. */
export function budgetedRead(db: Db, { text, params, mode, budgetMs }: ReadRequest): ReadAnswer {
  try {
    const statement = db.prepare(text);
    const result = withinBudget(db, budgetMs, () => (mode === 'get' ? statement.get(...params) : (mode === 'column' ? statement.pluck() : statement).all(...params)));
    return { result };
  } catch (err) {
    return err instanceof BudgetSpent ? { timeout: true } : { error: (err as Error).message };
  }
}
