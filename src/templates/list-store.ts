import type { Dir } from '../store/offset-page.js';
import { offsetPage, searchCondition } from '../store/offset-page.js';
import { TEMPLATE_COLUMNS, toTemplate, type Template, type TemplateRow, type TemplateType } from './store.js';
import type { ReadOptions, Reader } from '../store/reader.js';

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

/** One page of the project's templates and the count over all pages. */
export async function listTemplates(reader: Reader, read: ReadOptions, q: TemplateListQuery): Promise<{ data: Template[]; total: number }> {
  const where = ['project_id = ?'];
  const params: unknown[] = [read.projectId];
  if (q.type) {
    where.push('type = ?');
    params.push(q.type);
  }
  if (q.search) {
    const s = searchCondition(q.search);
    where.push(s.where);
    params.push(s.param);
  }
  const { rows, total } = await offsetPage<TemplateRow>(reader, read, { table: 'templates', columns: TEMPLATE_COLUMNS, where, params, orderBy: ORDER_COLUMN[q.sort], ...q });
  return { data: rows.map(toTemplate), total };
}
