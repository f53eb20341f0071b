import { sql, type Db } from '../store/db.js';

/** Jobs of one kind, lane and status: how many, and when the oldest due one became due. */
export interface JobGroup {
  kind: string;
  /** null while the jobs table has no lanes. */
  lane: string | null;
  status: string;
  count: number;
  oldestDueAt: number | null;
}

/** Whether the jobs table carries delivery lanes (a later migration adds them). */
function hasLanes(db: Db): boolean {
  return (sql(db, "SELECT COUNT(*) AS n FROM pragma_table_info('jobs') WHERE name = 'lane'").get() as { n: number }).n > 0;
}

/** The job queue grouped for the metrics, read at scrape time (the whole table; an operator's view, no project scope). */
export function jobGroups(db: Db, now: number): JobGroup[] {
  const lane = hasLanes(db) ? 'lane' : 'NULL';
  return sql(
    db,
    `SELECT kind, ${lane} AS lane, status, COUNT(*) AS count,
            MIN(CASE WHEN status = 'queued' AND run_at <= @now THEN run_at END) AS oldestDueAt
       FROM jobs GROUP BY kind, ${lane}, status`,
  ).all({ now }) as JobGroup[];
}
