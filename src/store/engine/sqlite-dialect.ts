// SQLite's side of the dialect: JSON1 functions over JSON text, NOCASE, unixepoch.
import { quoteText, upsertSql, type Dialect } from './dialect.js';

/**
 * A key as a quoted label of a JSON path. SQLite ends the label at the first `"` and decodes JSON
 * escapes inside it, so backslashes are doubled and quotes and control characters are written as
 * \u escapes: the path names exactly that key.
 */
const label = (key: string) => `"${key.replace(/[\\"\u0000-\u001f]/g, (ch) => (ch === '\\' ? '\\\\' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;

const jsonPath = (path: readonly string[]) => quoteText('$' + path.map((key) => `.${label(key)}`).join(''));

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  jsonText: (document, path) => `(CASE json_type(${document}, ${jsonPath(path)}) WHEN 'text' THEN json_extract(${document}, ${jsonPath(path)}) END)`,
  jsonNumber: (document, path) =>
    `(CASE WHEN json_type(${document}, ${jsonPath(path)}) IN ('integer', 'real') THEN json_extract(${document}, ${jsonPath(path)}) END)`,
  equalsIgnoringCase: (a, b) => `(${a} = ${b} COLLATE NOCASE)`,
  upsert: upsertSql,
  // unixepoch('subsec') is a double of seconds: rounded, not truncated, to the millisecond it holds
  nowMs: "CAST(round(unixepoch('subsec') * 1000) AS INTEGER)",
};
