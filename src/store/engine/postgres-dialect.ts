// PostgreSQL's side of the dialect: jsonb operators, lower() under the "C" collation (ASCII only,
// as SQLite folds), the statement's timestamp.
import { quoteText, upsertSql, type Dialect } from './dialect.js';

/** A path of keys as a text[] literal. */
const jsonPath = (path: readonly string[]) => `ARRAY[${path.map(quoteText).join(', ')}]::text[]`;

/** JSON kept as text (events, payloads) and contact data kept as jsonb are read alike. */
const asJsonb = (document: string) => `(${document})::jsonb`;

export const postgresDialect: Dialect = {
  engine: 'postgres',
  jsonText: (document, path) =>
    `(CASE jsonb_typeof(${asJsonb(document)} #> ${jsonPath(path)}) WHEN 'string' THEN ${asJsonb(document)} #>> ${jsonPath(path)} END)`,
  jsonNumber: (document, path) =>
    `(CASE jsonb_typeof(${asJsonb(document)} #> ${jsonPath(path)}) WHEN 'number' THEN (${asJsonb(document)} #>> ${jsonPath(path)})::float8 END)`,
  // under any other collation lower() folds letters beyond ASCII too, which SQLite's NOCASE does not
  equalsIgnoringCase: (a, b) => `(lower((${a})::text COLLATE "C") = lower((${b})::text COLLATE "C"))`,
  upsert: upsertSql,
  nowMs: 'CAST(round(extract(epoch FROM statement_timestamp()) * 1000) AS bigint)',
};
