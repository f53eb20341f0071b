import { sql, type Db } from './db.js';

/** The order of a sorted list. */
export type Dir = 'asc' | 'desc';

/** One page of an offset list: conditions and the order are fixed fragments of the caller, values are bound. */
export interface OffsetPageQuery {
  table: string;
  columns: string;
  /** ANDed; the project scope first. */
  where: string[];
  params: unknown[];
  orderBy: string;
  dir: Dir;
  pageSize: number;
  offset: number;
}

/** The rows of one page and the count over all pages. Ties are broken by id, so pages never overlap. */
export function offsetPage<R>(db: Db, q: OffsetPageQuery): { rows: R[]; total: number } {
  const filter = q.where.join(' AND ');
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const rows = sql(db, `SELECT ${q.columns} FROM ${q.table} WHERE ${filter} ORDER BY ${q.orderBy} ${order}, id ${order} LIMIT ? OFFSET ?`).all(
    ...q.params,
    q.pageSize,
    q.offset,
  ) as R[];
  const total = (sql(db, `SELECT COUNT(*) AS n FROM ${q.table} WHERE ${filter}`).get(...q.params) as { n: number }).n;
  return { rows, total };
}

/** The condition of a case-insensitive search over a row's `search_lc` text. */
export const searchCondition = (search: string): { where: string; param: string } => ({ where: 'instr(search_lc, ?) > 0', param: search.toLowerCase() });
