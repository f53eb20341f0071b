// What differs in SQL between the engines, each answer a fragment for a statement's text. Names
// and keys given here come from the code, never from a request: they are quoted, not bound.

/** An INSERT of one row that updates the row already holding its key. */
export interface Upsert {
  table: string;
  /** The inserted columns, each bound to a `?` in this order. */
  columns: readonly string[];
  /** The columns of the unique key the row may already hold. */
  key: readonly string[];
  /** On a conflict: `replace` takes the new value, `add` adds it to the old one; none of them is DO NOTHING. */
  set: Readonly<Record<string, 'replace' | 'add'>>;
}

export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /** The string at `path` (keys from the top) of the JSON document `document`; NULL when missing or not a string. */
  jsonText(document: string, path: readonly string[]): string;
  /** The number at `path` of `document`; NULL when missing or not a number. */
  jsonNumber(document: string, path: readonly string[]): string;
  /** `a` equals `b` with the ASCII letters folded, and nothing else (SQLite's NOCASE). */
  equalsIgnoringCase(a: string, b: string): string;
  upsert(spec: Upsert): string;
  /** The current time in whole milliseconds since 1970 (the statement's time, not the clock of the code). */
  readonly nowMs: string;
}

/** A text as an SQL string literal. */
export const quoteText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * The one spelling of an upsert both engines take. PostgreSQL calls an unqualified column of the
 * DO UPDATE clause ambiguous (the old row or `excluded`), so the old value is named by its table,
 * which SQLite accepts too.
 */
export function upsertSql({ table, columns, key, set }: Upsert): string {
  const changes = Object.entries(set).map(([column, how]) => (how === 'replace' ? `${column} = excluded.${column}` : `${column} = ${table}.${column} + excluded.${column}`));
  const action = changes.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${changes.join(', ')}`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (${key.join(', ')}) ${action}`;
}
