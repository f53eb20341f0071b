import { sql, type Db } from '../store/db.js';

/** Who unsubscribed a contact when it was not the API: the contact (its links, one-click, mailto), a bounce, a complaint. */
export type OptOutReason = 'unsubscribe-link' | 'bounce' | 'complaint';

/** Records the opt-out; the first reason stays while the contact stays unsubscribed. */
export function recordOptOut(db: Db, projectId: string, contactId: string, reason: OptOutReason, now: number): void {
  sql(db, 'INSERT INTO contact_opt_outs (contact_id, project_id, reason, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(
    contactId,
    projectId,
    reason,
    now,
  );
}

export function clearOptOut(db: Db, projectId: string, contactId: string): void {
  sql(db, 'DELETE FROM contact_opt_outs WHERE project_id = ? AND contact_id = ?').run(projectId, contactId);
}

export function optOutOf(db: Db, projectId: string, contactId: string): OptOutReason | null {
  const row = sql(db, 'SELECT reason FROM contact_opt_outs WHERE project_id = ? AND contact_id = ?').get(projectId, contactId) as
    | { reason: OptOutReason }
    | undefined;
  return row?.reason ?? null;
}
