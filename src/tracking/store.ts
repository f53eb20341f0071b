import { sql, type Db } from '../store/db.js';

/** The project of an email named by a signed token (the token carries only the email id). */
export function projectOfEmail(db: Db, emailId: string): string | null {
  const row = sql(db, 'SELECT project_id FROM emails WHERE id = ?').get(emailId) as { project_id: string } | undefined;
  return row?.project_id ?? null;
}

/** Counts one open; answers the running total and whether it was the first. */
export function countOpen(db: Db, emailId: string, now: number): { opens: number; first: boolean } {
  const row = sql(
    db,
    `UPDATE emails SET opens = opens + 1, first_opened_at = coalesce(first_opened_at, ?), updated_at = ? WHERE id = ?
     RETURNING opens, first_opened_at`,
  ).get(now, now, emailId) as { opens: number; first_opened_at: number };
  return { opens: row.opens, first: row.opens === 1 };
}

export function countClick(db: Db, emailId: string, now: number): { clicks: number; first: boolean } {
  const row = sql(
    db,
    `UPDATE emails SET clicks = clicks + 1, first_clicked_at = coalesce(first_clicked_at, ?), updated_at = ? WHERE id = ?
     RETURNING clicks`,
  ).get(now, now, emailId) as { clicks: number };
  return { clicks: row.clicks, first: row.clicks === 1 };
}
