import { LANES, type Lane } from '../jobs/types.js';
import type { ReadOptions, Reader } from '../store/reader.js';

/** Jobs of one kind, lane and status: how many, and when the oldest due one became due. */
export interface JobGroup {
  kind: string;
  lane: Lane;
  status: string;
  count: number;
  oldestDueAt: number | null;
}

/**
 * The job queue grouped for the metrics, read at scrape time: the whole table (an operator's view,
 * no project scope), which a campaign's backlog makes a million rows, so on a reader thread.
 */
export async function jobGroups(reader: Reader, read: ReadOptions, now: number): Promise<JobGroup[]> {
  const rows = await reader.all<Omit<JobGroup, 'lane'> & { lane: number }>(
    read,
    `SELECT kind, lane, status, COUNT(*) AS count,
            MIN(CASE WHEN status = 'queued' AND run_at <= ? THEN run_at END) AS oldestDueAt
       FROM jobs WHERE budget() GROUP BY kind, lane, status`,
    [now],
  );
  return rows.map((row) => ({ ...row, lane: LANES[row.lane] ?? 'transactional' }));
}
