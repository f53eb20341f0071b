import { sql, type Db } from '../store/db.js';

/** Deliveries counted for a sender domain on `day` (migration 105). */
export function warmupSent(db: Db, projectId: string, domain: string, day: number): number {
  const row = sql(db, 'SELECT sent FROM warmup_days WHERE project_id = ? AND domain = ? AND day = ?').get(projectId, domain, day) as { sent: number } | undefined;
  return row?.sent ?? 0;
}

/** Counts one delivery for a sender domain on `day`. */
export function countWarmup(db: Db, projectId: string, domain: string, day: number): void {
  sql(
    db,
    `INSERT INTO warmup_days (project_id, domain, day, sent) VALUES (?, ?, ?, 1)
     ON CONFLICT (project_id, domain, day) DO UPDATE SET sent = sent + 1`,
  ).run(projectId, domain, day);
}

/** Drops a domain's counts of days before `day`: the table keeps one row per domain. */
export function dropWarmupBefore(db: Db, projectId: string, domain: string, day: number): void {
  sql(db, 'DELETE FROM warmup_days WHERE project_id = ? AND domain = ? AND day < ?').run(projectId, domain, day);
}
