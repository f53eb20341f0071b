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

export interface Suppression {
  email: string;
  reason: SuppressionReason;
  /** The email whose bounce or complaint suppressed the address. */
  emailId: string | null;
  /** The project's contact of that address, if there is one. */
  contactId: string | null;
  createdAt: number;
}

export interface SuppressionFilter {
  reason: SuppressionReason | null;
  /** Part of the address, lower-cased. */
  search: string | null;
  /** After this (created_at, email_lc) in newest-first order. */
  after: { at: number; email: string } | null;
  limit: number;
}

/** A page's rows on the main connection (a plain page reads `limit` index entries). */
export const suppressionRows = (db: Db, statement: { text: string; params: unknown[] }): SuppressionRow[] => sql(db, statement.text).all(...statement.params) as SuppressionRow[];

/**
 * One page of the project's suppressions, newest first: the SQL text and its parameters (the
 * caller runs it on the main connection or on a reader thread; `budget()` first either way).
 */
export function suppressionPageQuery(projectId: string, f: SuppressionFilter): { text: string; params: unknown[] } {
  const where = ['budget()', 's.project_id = ?'];
  const params: unknown[] = [projectId];
  if (f.reason) {
    where.push('s.reason = ?');
    params.push(f.reason);
  }
  if (f.search) {
    where.push('instr(s.email_lc, ?) > 0');
    params.push(f.search);
  }
  if (f.after) {
    where.push('(s.created_at, s.email_lc) < (?, ?)');
    params.push(f.after.at, f.after.email);
  }
  const text = `SELECT s.email_lc, s.reason, s.email_id, s.created_at, c.id AS contact_id FROM suppressions s
    LEFT JOIN contacts c ON c.project_id = s.project_id AND c.email_lc = s.email_lc
    WHERE ${where.join(' AND ')} ORDER BY s.created_at DESC, s.email_lc DESC LIMIT ?`;
  return { text, params: [...params, f.limit] };
}

export interface SuppressionRow {
  email_lc: string;
  reason: SuppressionReason;
  email_id: string | null;
  created_at: number;
  contact_id: string | null;
}

export const toSuppression = (r: SuppressionRow): Suppression => ({
  email: r.email_lc,
  reason: r.reason,
  emailId: r.email_id,
  contactId: r.contact_id,
  createdAt: r.created_at,
});

export interface SuppressionRemoval {
  id: number;
  email: string;
  reason: SuppressionReason;
  suppressedAt: number;
  removedBy: string;
  note: string;
  removedAt: number;
}

/** Deletes the suppression and keeps the removal (who, when, why) in the same statement pair; null when the address was not suppressed. */
export function removeSuppression(db: Db, projectId: string, email: string, who: string, note: string, now: number): SuppressionRemoval | null {
  const gone = sql(db, 'DELETE FROM suppressions WHERE project_id = ? AND email_lc = ? RETURNING reason, created_at').get(projectId, email.toLowerCase()) as
    | { reason: SuppressionReason; created_at: number }
    | undefined;
  if (!gone) return null;
  const id = sql(
    db,
    'INSERT INTO suppression_removals (project_id, email_lc, reason, suppressed_at, removed_by, note, removed_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
  )
    .pluck()
    .get(projectId, email.toLowerCase(), gone.reason, gone.created_at, who, note, now) as number;
  return { id, email: email.toLowerCase(), reason: gone.reason, suppressedAt: gone.created_at, removedBy: who, note, removedAt: now };
}

/** The project's removals, newest first, after the removal `beforeId`. */
export function listRemovals(db: Db, projectId: string, beforeId: number | null, limit: number): SuppressionRemoval[] {
  const rows = sql(
    db,
    `SELECT id, email_lc, reason, suppressed_at, removed_by, note, removed_at FROM suppression_removals
     WHERE project_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  ).all(projectId, beforeId ?? Number.MAX_SAFE_INTEGER, limit) as {
    id: number;
    email_lc: string;
    reason: SuppressionReason;
    suppressed_at: number;
    removed_by: string;
    note: string;
    removed_at: number;
  }[];
  return rows.map((r) => ({ id: r.id, email: r.email_lc, reason: r.reason, suppressedAt: r.suppressed_at, removedBy: r.removed_by, note: r.note, removedAt: r.removed_at }));
}
