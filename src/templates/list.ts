import type { Dir } from '../http/pagination.js';
import { sql, type Db } from '../store/db.js';
import { TEMPLATE_COLUMNS, toTemplate, type Template, type TemplateRow, type TemplateType } from './store.js';

export type TemplateSort = 'name' | 'createdAt' | 'updatedAt';

export interface TemplateListQuery {
  offset: number;
  pageSize: number;
  type: TemplateType | null;
  search: string | null;
  sort: TemplateSort;
  dir: Dir;
}

const ORDER_COLUMN: Record<TemplateSort, string> = { name: 'name COLLATE NOCASE', createdAt: 'created_at', updatedAt: 'updated_at' };

/** One page of the project's templates and the count over all pages. SQL is built from fixed fragments only. */
export function listTemplates(db: Db, projectId: string, q: TemplateListQuery): { data: Template[]; total: number } {
  const where = ['project_id = ?'];
  const params: unknown[] = [projectId];
  if (q.type) {
    where.push('type = ?');
    params.push(q.type);
  }
  if (q.search) {
    where.push('instr(search_lc, ?) > 0');
    params.push(q.search.toLowerCase());
  }
  const filter = where.join(' AND ');
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const rows = sql(db, `SELECT ${TEMPLATE_COLUMNS} FROM templates WHERE ${filter} ORDER BY ${ORDER_COLUMN[q.sort]} ${order}, id ${order} LIMIT ? OFFSET ?`).all(
    ...params,
    q.pageSize,
    q.offset,
  ) as TemplateRow[];
  const total = (sql(db, `SELECT COUNT(*) AS n FROM templates WHERE ${filter}`).get(...params) as { n: number }).n;
  return { data: rows.map(toTemplate), total };
}
