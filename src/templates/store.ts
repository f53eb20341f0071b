import { sql, type Db } from '../store/db.js';
import { cachedRow } from '../store/row-cache.js';

export const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

/** What a template and a campaign both are: a named email, its sender and its content type. */
export interface EmailContentFields {
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: TemplateType;
}

export interface Template extends EmailContentFields {
  id: string;
  projectId: string;
  createdAt: number;
  updatedAt: number;
}

export interface TemplateRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  type: TemplateType;
  created_at: number;
  updated_at: number;
}

export const TEMPLATE_COLUMNS = 'id, project_id, name, description, subject, body, from_email, from_name, reply_to, type, created_at, updated_at';

export const toTemplate = (r: TemplateRow): Template => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  description: r.description,
  subject: r.subject,
  body: r.body,
  from: r.from_email,
  fromName: r.from_name,
  replyTo: r.reply_to,
  type: r.type,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

// The unit separator keeps a search from matching across two fields.
const searchText = (t: Template) => [t.name, t.description ?? '', t.subject].join('\u001f').toLowerCase();

/** Read on every send with a template: memoized until templates change. */
export function findTemplateById(db: Db, projectId: string, id: string): Template | null {
  return cachedRow(db, ['templates'], `template:${projectId}:${id}`, () => {
    const row = sql(db, `SELECT ${TEMPLATE_COLUMNS} FROM templates WHERE project_id = ? AND id = ?`).get(projectId, id) as TemplateRow | undefined;
    return row ? toTemplate(row) : null;
  });
}

export function insertTemplate(db: Db, t: Template): void {
  sql(db, `INSERT INTO templates (${TEMPLATE_COLUMNS}, search_lc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    t.id,
    t.projectId,
    t.name,
    t.description,
    t.subject,
    t.body,
    t.from,
    t.fromName,
    t.replyTo,
    t.type,
    t.createdAt,
    t.updatedAt,
    searchText(t),
  );
}

export function updateTemplate(db: Db, t: Template): void {
  sql(
    db,
    `UPDATE templates SET name = ?, description = ?, subject = ?, body = ?, from_email = ?, from_name = ?, reply_to = ?, type = ?,
     search_lc = ?, updated_at = ? WHERE project_id = ? AND id = ?`,
  ).run(t.name, t.description, t.subject, t.body, t.from, t.fromName, t.replyTo, t.type, searchText(t), t.updatedAt, t.projectId, t.id);
}

export function deleteTemplateRow(db: Db, projectId: string, id: string): boolean {
  return sql(db, 'DELETE FROM templates WHERE project_id = ? AND id = ?').run(projectId, id).changes === 1;
}
