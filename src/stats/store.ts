import { sql, type Db } from '../store/db.js';

export const DAY_MS = 86_400_000;

/** The metrics the triggers of migration 090 keep per project and UTC day. */
export const DAILY_METRICS = ['sent', 'delivered', 'bounced', 'complained', 'opened', 'clicked'] as const;
export type DailyMetric = (typeof DAILY_METRICS)[number];

/** The kept counts of days `fromDay..toDay` (days since the epoch, UTC): at most 6 rows a day, one index range. */
export function dailyCounts(db: Db, projectId: string, fromDay: number, toDay: number): { day: number; metric: DailyMetric; count: number }[] {
  return sql(db, 'SELECT day, metric, count FROM email_daily WHERE project_id = ? AND day BETWEEN ? AND ?').all(projectId, fromDay, toDay) as {
    day: number;
    metric: DailyMetric;
    count: number;
  }[];
}

/** Emails on their way: queued (or being handed over right now) and deferred, from the partial index of migration 091. */
export function pendingEmails(db: Db, projectId: string): { queued: number; deferred: number } {
  const rows = sql(db, "SELECT status, COUNT(*) AS n FROM emails WHERE project_id = ? AND status IN ('queued', 'sending', 'deferred') GROUP BY status").all(projectId) as {
    status: string;
    n: number;
  }[];
  const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { queued: count('queued') + count('sending'), deferred: count('deferred') };
}
