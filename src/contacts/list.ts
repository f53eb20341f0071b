import type { Ctx } from '../context.js';
import { sql } from '../store/db.js';
import { readerOf, readFor } from '../store/reader.js';
import { encodeCursor, type CursorPosition, type Dir } from '../http/pagination.js';
import { CONTACT_COLUMNS, countContacts, toContact, type Contact, type ContactRow } from './store.js';

export interface ContactListQuery {
  limit: number;
  cursor: CursorPosition | null;
  search: string | null;
  subscribed: boolean | null;
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
 * One page of contacts in (sort key, id) order. The SQL text is built only from fixed fragments;
 * every caller value is a bound parameter. A plain page reads `limit` index entries on the main
 * connection; a page with a search or a subscription filter may scan the whole project to fill
 * itself (and a search's total counts it), so it runs on a reader thread within a request's budget.
 */
export async function listContacts(ctx: Ctx, projectId: string, q: ContactListQuery): Promise<ContactPage> {
  const column = q.sort === 'email' ? 'email_lc' : 'created_at';
  const where = ['budget()', 'project_id = ?'];
  const params: unknown[] = [projectId];
  if (q.subscribed !== null) {
    where.push('subscribed = ?');
    params.push(q.subscribed ? 1 : 0);
  }
  if (q.search) {
    where.push('instr(email_lc, ?) > 0');
    params.push(q.search.toLowerCase());
  }
  const filterSql = where.join(' AND ');
  const filterParams = [...params];
  if (q.cursor) {
    where.push(`(${column}, id) ${q.dir === 'desc' ? '<' : '>'} (?, ?)`);
    params.push(q.cursor.key, q.cursor.id);
  }
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const text = `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where.join(' AND ')} ORDER BY ${column} ${order}, id ${order} LIMIT ?`;
  const filtered = q.search !== null || q.subscribed !== null;
  const read = readFor(ctx.config, projectId, 'request');
  const rows = filtered ? await readerOf(ctx).all<ContactRow>(read, text, [...params, q.limit + 1]) : (sql(ctx.db, text).all(...params, q.limit + 1) as ContactRow[]);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const total = q.cursor
    ? 0
    : q.search
      ? (await readerOf(ctx).get<{ n: number }>(read, `SELECT COUNT(*) AS n FROM contacts WHERE ${filterSql}`, filterParams))!.n
      : countContacts(ctx.db, projectId, q.subscribed);
  return {
    data: page.map(toContact),
    cursor: hasMore && last ? encodeCursor({ key: q.sort === 'email' ? last.email_lc : last.created_at, id: last.id }) : null,
    hasMore,
    total,
  };
}
