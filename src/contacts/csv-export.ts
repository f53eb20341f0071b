// Contacts as CSV (GET /contacts/export): a header row, then one row per contact, written a batch
// at a time as the caller's walk yields them, so an export of any size never sits in memory.
// Cells follow RFC 4180 (quoted when they hold a quote, comma or line break; CRLF between rows),
// and text that a spreadsheet would run as a formula is defused.
import { iso } from '../clock.js';
import type { Contact } from './store.js';
import { countKeyTypes } from './fields-store.js';
import type { ReadOptions, Reader } from '../store/reader.js';

/** The columns every export starts with; a data key of the same name is written `data.<key>`. */
const STANDARD_COLUMNS = ['email', 'subscribed', 'createdAt'];

/** Contacts in id order, a bounded step at a time (the filter engine's walk). */
export interface ContactWalk {
  next(afterId: string | null, limit: number): Promise<{ contacts: Contact[]; last: string | null }>;
}

/** Contacts asked of the walk per step. */
const BATCH = 500;

/** Text a spreadsheet reads as a formula (OWASP's list: = + - @, tab, carriage return) starts with a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: text defused against formulas, then quoted if it needs to be. Numbers and booleans are written as they are. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n';

/** Every top-level data key of the project's contacts, sorted: the data columns (read on a reader thread). */
export async function dataKeys(reader: Reader, read: ReadOptions): Promise<string[]> {
  const keys = new Set((await countKeyTypes(reader, read)).map((r) => r.key));
  return [...keys].sort((a, b) => a.localeCompare(b));
}

/** The header row, then a chunk of rows per step of the walk. */
export async function* contactsCsv(walk: ContactWalk, keys: string[]): AsyncGenerator<string> {
  yield csvRow([...STANDARD_COLUMNS, ...keys.map((k) => (STANDARD_COLUMNS.includes(k) ? `data.${k}` : k))]);
  for (let after: string | null = null; ; ) {
    const { contacts, last } = await walk.next(after, BATCH);
    if (contacts.length > 0) yield contacts.map((c) => csvRow([c.email, c.subscribed, iso(c.createdAt), ...keys.map((k) => c.data[k])])).join('');
    if (last === null) return;
    after = last;
  }
}
