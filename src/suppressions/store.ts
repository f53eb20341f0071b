import { sql, type Db } from '../store/db.js';

export type SuppressionReason = 'bounce' | 'complaint';

/** Records the address as suppressed; the first reason stays (a later complaint does not rewrite a bounce). */
export function suppress(db: Db, projectId: string, email: string, reason: SuppressionReason, emailId: string | null, now: number): void {
  sql(db, 'INSERT INTO suppressions (project_id, email_lc, reason, email_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING').run(
    projectId,
    email.toLowerCase(),
    reason,
    emailId,
    now,
  );
}

export function suppressionOf(db: Db, projectId: string, email: string): SuppressionReason | null {
  const row = sql(db, 'SELECT reason FROM suppressions WHERE project_id = ? AND email_lc = ?').get(projectId, email.toLowerCase()) as
    | { reason: SuppressionReason }
    | undefined;
  return row?.reason ?? null;
}

/** Which of these addresses are suppressed (lower-cased), in one query. */
export function suppressedAmong(db: Db, projectId: string, emails: string[]): Set<string> {
  const rows = sql(db, 'SELECT email_lc FROM suppressions WHERE project_id = ? AND email_lc IN (SELECT lower(value) FROM json_each(?))').all(
    projectId,
    JSON.stringify(emails),
  ) as { email_lc: string }[];
  return new Set(rows.map((r) => r.email_lc));
}
