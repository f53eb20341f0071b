import { sql, type Db } from '../store/db.js';
import type { Check } from './check.js';

export interface StoredCheck extends Check {
  checkedAt: number;
}

/** Keeps a check's latest result (daemon-wide: what the daemon found from this machine). */
export function saveCheckResult(db: Db, check: Check, at: number): void {
  sql(
    db,
    `INSERT INTO doctor_results (name, ok, detail, fix, checked_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET ok = excluded.ok, detail = excluded.detail, fix = excluded.fix, checked_at = excluded.checked_at`,
  ).run(check.name, check.ok ? 1 : 0, check.detail, check.fix, at);
}

export function forgetCheckResult(db: Db, name: string): void {
  sql(db, 'DELETE FROM doctor_results WHERE name = ?').run(name);
}

export function latestCheckResult(db: Db, name: string): StoredCheck | null {
  const row = sql(db, 'SELECT name, ok, detail, fix, checked_at FROM doctor_results WHERE name = ?').get(name) as
    | { name: string; ok: number; detail: string; fix: string | null; checked_at: number }
    | undefined;
  // a check that passed with advice is a warning
  return row ? { name: row.name, ok: row.ok === 1, warning: row.ok === 1 && row.fix !== null, detail: row.detail, fix: row.fix, checkedAt: row.checked_at } : null;
}
