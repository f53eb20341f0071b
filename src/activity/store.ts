import { sql, type Db } from '../store/db.js';

/** The trigger-kept counters of the project's events, by name (migration 051). */
export function eventCounts(db: Db, projectId: string): Map<string, { count: number; firsts: number }> {
  const rows = sql(db, 'SELECT name, count, firsts FROM event_counts WHERE project_id = ?').all(projectId) as { name: string; count: number; firsts: number }[];
  return new Map(rows.map((r) => [r.name, { count: r.count, firsts: r.firsts }]));
}
