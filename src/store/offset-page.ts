import type { ReadOptions, Reader } from './reader.js';

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

/**
 * The rows of one page and the count over all pages. Ties are broken by id, so pages never overlap.
 * Both read as many rows as the list holds (the count, and the offset skipped), so they run on a
 * reader thread under the request's budget.
 */
export async function offsetPage<R>(reader: Reader, read: ReadOptions, q: OffsetPageQuery): Promise<{ rows: R[]; total: number }> {
  const filter = ['budget()', ...q.where].join(' AND ');
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const rows = await reader.all<R>(read, `SELECT ${q.columns} FROM ${q.table} WHERE ${filter} ORDER BY ${q.orderBy} ${order}, id ${order} LIMIT ? OFFSET ?`, [
    ...q.params,
    q.pageSize,
    q.offset,
  ]);
  const total = (await reader.get<{ n: number }>(read, `SELECT COUNT(*) AS n FROM ${q.table} WHERE ${filter}`, q.params))!.n;
  return { rows, total };
}

/** The condition of a case-insensitive search over a row's `search_lc` text. */
export const searchCondition = (search: string): { where: string; param: string } => ({ where: 'instr(search_lc, ?) > 0', param: search.toLowerCase() });
