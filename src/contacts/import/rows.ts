// How a CSV row becomes a contact: the header names the columns, each row is one upsert.
import { parseEmailAddress } from '../../addresses/email.js';
import { validationFailed } from '../../errors.js';
import type { ContactData } from '../data.js';
import type { ContactInput } from '../service.js';

export type Column = { kind: 'email' } | { kind: 'subscribed' } | { kind: 'data'; key: string } | { kind: 'ignored' };

/** What one row amounts to: nothing (every cell empty), a failure, or a contact upsert. */
export type RowOutcome = { kind: 'blank' } | { kind: 'invalid'; message: string } | { kind: 'contact'; input: ContactInput };

const MAX_COLUMNS = 1000;
const DATA_PREFIX = 'data.';

const headerProblem = (message: string) => validationFailed([{ field: 'file', message, code: 'custom' }], 'The CSV file cannot be imported');

/** Maps the header row to columns; a header without `email`, or naming a column twice, is refused (422). */
export function columnsOf(header: string[]): Column[] {
  if (header.length > MAX_COLUMNS) throw headerProblem(`The header has ${header.length} columns; at most ${MAX_COLUMNS} are allowed`);
  const seen = new Set<string>();
  const columns = header.map((raw): Column => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    const column: Column =
      lower === 'email'
        ? { kind: 'email' }
        : lower === 'subscribed'
          ? { kind: 'subscribed' }
          : name.startsWith(DATA_PREFIX)
            ? { kind: 'data', key: name.slice(DATA_PREFIX.length) }
            : { kind: 'data', key: name };
    // `__proto__` would never be stored (mergeData drops it); as an object key it is not even data
    if (column.kind === 'data' && (column.key === '' || column.key === '__proto__')) return { kind: 'ignored' };
    const id = column.kind === 'data' ? `data:${column.key}` : column.kind;
    if (seen.has(id)) throw headerProblem(`The column "${name}" appears twice in the header`);
    seen.add(id);
    return column;
  });
  if (!seen.has('email')) throw headerProblem('The header row has no "email" column');
  return columns;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** Digits a double holds exactly: longer numerals stay text rather than change. */
const MAX_DIGITS = 15;

/** Numbers and booleans are recognised; anything else (leading zeros, `1e5`, `+49...`) stays text. */
export function cellValue(text: string): string | number | boolean {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (NUMBER.test(text) && text.replace(/[-.]/g, '').length <= MAX_DIGITS) return Number(text);
  return text;
}

const SUBSCRIBED: Record<string, boolean> = { true: true, 1: true, yes: true, false: false, 0: false, no: false };

const echo = (text: string) => JSON.stringify(text.length > 100 ? text.slice(0, 100) + '…' : text);

/** The upsert a row asks for. Cells past the header's columns are a failure; missing ones are empty. */
export function rowOutcome(cells: string[], columns: Column[]): RowOutcome {
  if (cells.every((c) => c === '')) return { kind: 'blank' };
  if (cells.length > columns.length) {
    return { kind: 'invalid', message: `The row has ${cells.length} cells; the header has ${columns.length} columns` };
  }
  let email: string | null = null;
  let subscribed: boolean | undefined;
  const data: ContactData = {};
  for (let i = 0; i < columns.length; i++) {
    const cell = cells[i] ?? '';
    const column = columns[i]!;
    if (cell === '' || column.kind === 'ignored') continue;
    if (column.kind === 'email') {
      const parsed = parseEmailAddress(cell);
      if (!parsed) return { kind: 'invalid', message: `Invalid email address ${echo(cell)}` };
      email = parsed.address;
    } else if (column.kind === 'subscribed') {
      subscribed = SUBSCRIBED[cell.toLowerCase()];
      if (subscribed === undefined) return { kind: 'invalid', message: `"subscribed" must be true, 1, yes, false, 0 or no; got ${echo(cell)}` };
    } else {
      data[column.key] = cellValue(cell);
    }
  }
  if (email === null) return { kind: 'invalid', message: 'The row has no email address' };
  return { kind: 'contact', input: { email, ...(subscribed === undefined ? {} : { subscribed }), data } };
}
