// The store's SQL binds with `?`, as SQLite does; PostgreSQL numbers its parameters ($1, $2...).
// A `?` inside a string, a quoted name or a comment is text and stays as it is, which also means
// jsonb's `?` operators cannot be written here (jsonb_exists() says the same). Strings with
// backslash escapes (E'...') are not read as such: the store writes none.

const translated = new Map<string, string>();
/** Statements are written in the code, but filters build theirs: the cache is bounded. */
const CACHED = 2000;

/** Where the quoted span opened at `start` ends (the index after it). */
function spanEnd(sql: string, start: number): number {
  const open = sql[start]!;
  if (open === '-') {
    const end = sql.indexOf('\n', start);
    return end === -1 ? sql.length : end + 1;
  }
  if (open === '/') {
    const end = sql.indexOf('*/', start + 2);
    return end === -1 ? sql.length : end + 2;
  }
  if (open === '$') {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(start))![0];
    const end = sql.indexOf(tag, start + tag.length);
    return end === -1 ? sql.length : end + tag.length;
  }
  // a quote doubled inside a string or a name is the quote itself: scanning on reopens the span
  const end = sql.indexOf(open, start + 1);
  return end === -1 ? sql.length : end + 1;
}

/** Where a span that is not SQL opens at i: a string, a quoted name, a comment or a dollar-quoted body. */
function opensSpan(sql: string, i: number): boolean {
  const ch = sql[i];
  if (ch === "'" || ch === '"') return true;
  if (ch === '-') return sql[i + 1] === '-';
  if (ch === '/') return sql[i + 1] === '*';
  // $1 is a parameter, $$ and $tag$ open a body
  return ch === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64)) && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '');
}

function translate(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    if (opensSpan(sql, i)) {
      const end = spanEnd(sql, i);
      out += sql.slice(i, end);
      i = end;
    } else {
      out += sql[i] === '?' ? `$${++n}` : sql[i];
      i += 1;
    }
  }
  return out;
}

/** The statement with its `?` placeholders numbered. */
export function numberedPlaceholders(sql: string): string {
  let text = translated.get(sql);
  if (text === undefined) {
    if (translated.size >= CACHED) translated.clear();
    translated.set(sql, (text = translate(sql)));
  }
  return text;
}
