import type { Core } from '../core.js';
import { readFor } from '../store/reader.js';
import { encodeCursor, type CursorPosition } from '../http/pagination.js';
import type { Dir } from '../store/offset-page.js';
import { contactPageStatements, contactRows, countContacts, toContact, type Contact, type ContactRow, type ContactTest } from './store.js';

export interface ContactListQuery {
  limit: number;
  cursor: CursorPosition | null;
  search: string | null;
  subscribed: boolean | null;
  /** A data-field (or any) condition, as the filter engine writes it: `?where=<FilterCondition JSON>`. */
  where: ContactTest | null;
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
 * One page of contacts in (sort key, id) order. A plain page reads `limit` index entries on the main
 * connection; a page with a search, a subscription filter or a condition may scan the whole project
 * to fill itself (and its total counts it), so it runs on a reader thread within a request's budget.
 */
export async function listContacts(core: Core, projectId: string, q: ContactListQuery): Promise<ContactPage> {
  const statements = contactPageStatements(projectId, {
    search: q.search,
    subscribed: q.subscribed,
    where: q.where,
    sort: q.sort,
    dir: q.dir,
    after: q.cursor ? { key: q.cursor.key, id: q.cursor.id } : null,
    limit: q.limit + 1,
  });
  const filtered = q.search !== null || q.subscribed !== null || q.where !== null;
  const read = readFor(core.config, projectId, 'request');
  const rows = filtered ? await core.reader.all<ContactRow>(read, statements.page.text, statements.page.params) : contactRows(core.db, statements.page);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const counted = q.search !== null || q.where !== null;
  const total = q.cursor
    ? 0
    : counted
      ? (await core.reader.get<{ n: number }>(read, statements.count.text, statements.count.params))!.n
      : countContacts(core.db, projectId, q.subscribed);
  return {
    data: page.map(toContact),
    cursor: hasMore && last ? encodeCursor({ key: q.sort === 'email' ? last.email_lc : last.created_at, id: last.id }) : null,
    hasMore,
    total,
  };
}
