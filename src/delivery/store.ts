import { sql, type Db } from '../store/db.js';
import type { EmailStatus } from '../emails/store.js';

export function messageOf(db: Db, emailId: string): { raw: Buffer; signed: boolean } | null {
  const row = sql(db, 'SELECT raw, signed FROM email_messages WHERE email_id = ?').get(emailId) as { raw: Buffer; signed: number } | undefined;
  return row ? { raw: row.raw, signed: row.signed === 1 } : null;
}

/** The signed message replaces the unsigned one, so later attempts send the very same bytes. */
export function storeSigned(db: Db, emailId: string, raw: Buffer): void {
  sql(db, 'UPDATE email_messages SET raw = ?, signed = 1 WHERE email_id = ?').run(raw, emailId);
}

export function setEmailStatus(db: Db, emailId: string, status: EmailStatus, response: string | null, now: number): void {
  sql(db, 'UPDATE emails SET status = ?, last_response = coalesce(?, last_response), updated_at = ? WHERE id = ?').run(status, response, now, emailId);
}

/** Answers how many times this email has now been deferred: the retry schedule's step. */
export function markDeferred(db: Db, emailId: string, response: string, now: number): number {
  const row = sql(
    db,
    `UPDATE emails SET status = 'deferred', last_response = ?, deferrals = deferrals + 1, updated_at = ? WHERE id = ? RETURNING deferrals`,
  ).get(response, now, emailId) as { deferrals: number } | undefined;
  return row?.deferrals ?? 1;
}

export function markDelivered(db: Db, emailId: string, response: string, now: number): void {
  sql(db, `UPDATE emails SET status = 'delivered', last_response = ?, delivered_at = ?, updated_at = ? WHERE id = ?`).run(response, now, now, emailId);
}

/** Answers false when the email already has a permanent bounce (a second report changes nothing). */
export function markBounced(db: Db, emailId: string, response: string | null, now: number): boolean {
  return (
    sql(
      db,
      `UPDATE emails SET status = 'bounced', last_response = coalesce(?, last_response), bounced_at = ?, updated_at = ?
       WHERE id = ? AND bounced_at IS NULL`,
    ).run(response, now, now, emailId).changes === 1
  );
}

/** Answers false when a complaint was already recorded for the email. */
export function markComplained(db: Db, emailId: string, now: number): boolean {
  return sql(db, 'UPDATE emails SET complained_at = ?, updated_at = ? WHERE id = ? AND complained_at IS NULL').run(now, now, emailId).changes === 1;
}
