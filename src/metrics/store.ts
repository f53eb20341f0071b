import { LANES, type Lane } from '../jobs/types.js';
import { sql, type Db } from '../store/db.js';

/** Jobs of one kind, lane and status: how many, and when the oldest due one became due. */
export interface JobGroup {
  kind: string;
  lane: Lane;
  status: string;
  count: number;
  oldestDueAt: number | null;
}

/** The job queue grouped for the metrics, read at scrape time (the whole table; an operator's view, no project scope). */
export function jobGroups(db: Db, now: number): JobGroup[] {
  const rows = sql(
    db,
    `SELECT kind, lane, status, COUNT(*) AS count,
            MIN(CASE WHEN status = 'queued' AND run_at <= @now THEN run_at END) AS oldestDueAt
       FROM jobs GROUP BY kind, lane, status`,
  ).all({ now }) as (Omit<JobGroup, 'lane'> & { lane: number })[];
  return rows.map((row) => ({ ...row, lane: LANES[row.lane] ?? 'transactional' }));
}
