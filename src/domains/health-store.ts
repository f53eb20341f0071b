import { sql, type Db } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';

export type SenderMetric = 'sent' | 'bounced' | 'complained';

/** One day's count of a sender domain (migration 104, kept by triggers on emails). */
export interface SenderCount {
  day: number;
  metric: SenderMetric;
  count: number;
}

/** A sender domain's counts of days `fromDay..toDay` (days since the epoch, UTC): one index range. */
export function senderCounts(db: Db, projectId: string, domain: string, fromDay: number, toDay: number): SenderCount[] {
  return sql(db, 'SELECT day, metric, count FROM sender_daily WHERE project_id = ? AND domain = ? AND day BETWEEN ? AND ?').all(
    projectId,
    domain,
    fromDay,
    toDay,
  ) as SenderCount[];
}

/** The first day the domain sent anything (counted), or null. */
export function firstSendDay(db: Db, projectId: string, domain: string): number | null {
  const row = sql(db, "SELECT MIN(day) AS day FROM sender_daily WHERE project_id = ? AND domain = ? AND metric = 'sent'").get(projectId, domain) as { day: number | null };
  return row.day;
}

/** Every sender domain's counts since `fromDay` (the metrics' scrape: the whole store, an operator's view), on a reader thread. */
export async function allSenderCounts(reader: Reader, read: ReadOptions, fromDay: number): Promise<(SenderCount & { domain: string })[]> {
  return reader.all<SenderCount & { domain: string }>(
    read,
    'SELECT domain, day, metric, SUM(count) AS count FROM sender_daily WHERE day >= ? AND budget() GROUP BY domain, day, metric',
    [fromDay],
  );
}
