import { sql, type Db } from '../store/db.js';

/** Claims are kept this long (per project and key). */
export const KEEP_MS = 24 * 60 * 60_000;

export interface Claim {
  request: string;
  statusCode: number | null;
  createdAt: number;
}

/**
 * Claims `key` for `request` unless a live claim holds it: answers that claim, or null when this
 * call took the key. Expired claims of the key are dropped first. The claim is one insert that
 * does nothing on conflict (not a select then an insert), so two writers racing for a key, on any
 * engine and isolation level, end with exactly one of them holding it.
 */
export function claimKey(db: Db, projectId: string, key: string, request: string, now: number): Claim | null {
  return db.transaction(() => {
    sql(db, 'DELETE FROM idempotency_keys WHERE project_id = ? AND key = ? AND created_at <= ?').run(projectId, key, now - KEEP_MS);
    const took = sql(
      db,
      'INSERT INTO idempotency_keys (project_id, key, request, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (project_id, key) DO NOTHING RETURNING 1',
    ).get(projectId, key, request, now);
    if (took) return null;
    const row = sql(db, 'SELECT request, status_code, created_at FROM idempotency_keys WHERE project_id = ? AND key = ?').get(projectId, key) as
      { request: string; status_code: number | null; created_at: number };
    return { request: row.request, statusCode: row.status_code, createdAt: row.created_at };
  })();
}

/** Lets a corrected request use the key again. */
export function releaseKey(db: Db, projectId: string, key: string): void {
  sql(db, 'DELETE FROM idempotency_keys WHERE project_id = ? AND key = ?').run(projectId, key);
}

/** Records how the claimed request ended; the claim stays until it expires. */
export function settleKey(db: Db, projectId: string, key: string, statusCode: number): void {
  sql(db, 'UPDATE idempotency_keys SET status_code = ? WHERE project_id = ? AND key = ?').run(statusCode, projectId, key);
}

/** Drops at most `limit` expired claims, the oldest first (a batch: an hour of a busy daemon's sends holds millions). */
export function sweepKeys(db: Db, now: number, limit: number): number {
  return sql(
    db,
    'DELETE FROM idempotency_keys WHERE (project_id, key) IN (SELECT project_id, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)',
  ).run(now - KEEP_MS, limit).changes;
}
