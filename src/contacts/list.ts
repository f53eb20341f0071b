import type { Core } from '../core.js';
import { sql } from '../store/db.js';
import { readFor } from '../store/reader.js';
import { encodeCursor, type CursorPosition, type Dir } from '../http/pagination.js';
import { filterWhere, type ContactFilter } from '../filters/engine.js';
import { CONTACT_COLUMNS, countContacts, toContact, type Contact, type ContactRow } from './store.js';

export interface ContactListQuery {
  limit: number;
  cursor: CursorPosition | null;
  search: string | null;
  subscribed: boolean | null;
  /** A data-field (or any) condition through the filter engine: `?where=<FilterCondition JSON>`. */
  where: ContactFilter | null;
  sort: 'email' | 'createdAt';
  dir: Dir;
}

export interface ContactPage {
  data: Contact[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

/**
 * One page of contacts in (sort key, id) order. The SQL text is built only from fixed fragments
 * (and the filter engine's, also fixed pieces); every caller value is a bound parameter. A plain
 * page reads `limit` index entries on the main connection; a page with a search, a subscription
 * filter or a condition may scan the whole project to fill itself (and its total counts it), so it
 * runs on a reader thread within a request's budget.
 */
export async function listContacts(core: Core, projectId: string, q: ContactListQuery): Promise<ContactPage> {
  const column = q.sort === 'email' ? 'c.email_lc' : 'c.created_at';
  const now = core.clock.now();
  const where = ['budget()', 'c.project_id = ?'];
  const params: unknown[] = [projectId];
  if (q.subscribed !== null) {
    where.push('c.subscribed = ?');
    params.push(q.subscribed ? 1 : 0);
  }
  if (q.search) {
    where.push('instr(c.email_lc, ?) > 0');
    params.push(q.search.toLowerCase());
  }
  // the count asks event tests as sets (scan), the page per contact (seek): the engine's two shapes
  const condition = (shape: 'scan' | 'seek') => (q.where ? filterWhere(q.where, now, shape) : null);
  const filterSql = (shape: 'scan' | 'seek') => {
    const test = condition(shape);
    return { text: [...where, ...(test ? [test.text] : [])].join(' AND '), params: [...params, ...(test?.params ?? [])] };
  };
  const pageFilter = filterSql('seek');
  const pageWhere = [pageFilter.text];
  const pageParams = [...pageFilter.params];
  if (q.cursor) {
    pageWhere.push(`(${column}, c.id) ${q.dir === 'desc' ? '<' : '>'} (?, ?)`);
    pageParams.push(q.cursor.key, q.cursor.id);
  }
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const text = `SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE ${pageWhere.join(' AND ')} ORDER BY ${column} ${order}, c.id ${order} LIMIT ?`;
  const filtered = q.search !== null || q.subscribed !== null || q.where !== null;
  const read = readFor(core.config, projectId, 'request');
  const rows = filtered ? await core.reader.all<ContactRow>(read, text, [...pageParams, q.limit + 1]) : (sql(core.db, text).all(...pageParams, q.limit + 1) as ContactRow[]);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const counted = q.search !== null || q.where !== null;
  const countFilter = filterSql('scan');
  const total = q.cursor
    ? 0
    : counted
      ? (await core.reader.get<{ n: number }>(read, `SELECT COUNT(*) AS n FROM contacts c WHERE ${countFilter.text}`, countFilter.params))!.n
      : countContacts(core.db, projectId, q.subscribed);
  return {
    data: page.map(toContact),
    cursor: hasMore && last ? encodeCursor({ key: q.sort === 'email' ? last.email_lc : last.created_at, id: last.id }) : null,
    hasMore,
    total,
  };
}
