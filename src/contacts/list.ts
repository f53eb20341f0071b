import type { Db } from '../store/db.js';
import { sql } from '../store/db.js';
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
 * every caller value is a bound parameter.
 */
export function listContacts(db: Db, projectId: string, q: ContactListQuery): ContactPage {
  const column = q.sort === 'email' ? 'email_lc' : 'created_at';
  const where = ['project_id = ?'];
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
  const rows = sql(db, `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where.join(' AND ')} ORDER BY ${column} ${order}, id ${order} LIMIT ?`).all(
    ...params,
    q.limit + 1,
  ) as ContactRow[];
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const total = q.cursor
    ? 0
    : q.search
      ? (sql(db, `SELECT COUNT(*) AS n FROM contacts WHERE ${filterSql}`).get(...filterParams) as { n: number }).n
      : countContacts(db, projectId, q.subscribed);
  return {
    data: page.map(toContact),
    cursor: hasMore && last ? encodeCursor({ key: q.sort === 'email' ? last.email_lc : last.created_at, id: last.id }) : null,
    hasMore,
    total,
  };
}
