import { parseJson, sql, type Db } from '../store/db.js';

export interface EventRecord {
  id: string;
  name: string;
  contactId: string | null;
  emailId: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

interface EventRow {
  id: string;
  name: string;
  contact_id: string | null;
  email_id: string | null;
  data: string;
  created_at: number;
}

const EVENT_COLUMNS = 'id, name, contact_id, email_id, data, created_at';

const toEvent = (r: EventRow): EventRecord => ({
  id: r.id,
  name: r.name,
  contactId: r.contact_id,
  emailId: r.email_id,
  data: parseJson(r.data, {}),
  createdAt: r.created_at,
});

/** Newest first (insertion order within one millisecond); `name` narrows to one event name. */
export function listEvents(db: Db, projectId: string, name: string | null, limit: number): EventRecord[] {
  const rows =
    name === null
      ? sql(db, `SELECT ${EVENT_COLUMNS} FROM events WHERE project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(projectId, limit)
      : sql(db, `SELECT ${EVENT_COLUMNS} FROM events WHERE project_id = ? AND name = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(
          projectId,
          name,
          limit,
        );
  return (rows as EventRow[]).map(toEvent);
}

export function listContactEvents(db: Db, projectId: string, contactId: string, limit: number): EventRecord[] {
  const rows = sql(
    db,
    `SELECT ${EVENT_COLUMNS} FROM events WHERE contact_id = ? AND project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  ).all(contactId, projectId, limit) as EventRow[];
  return rows.map(toEvent);
}

/** Events per name in [from, to], most frequent first. */
export function countEventsByName(db: Db, projectId: string, from: number, to: number): { name: string; count: number }[] {
  return sql(
    db,
    `SELECT name, COUNT(*) AS count FROM events WHERE project_id = ? AND created_at >= ? AND created_at <= ?
     GROUP BY name ORDER BY count DESC, name`,
  ).all(projectId, from, to) as { name: string; count: number }[];
}

export function eventNames(db: Db, projectId: string): string[] {
  return (sql(db, 'SELECT DISTINCT name FROM events WHERE project_id = ? ORDER BY name').all(projectId) as { name: string }[]).map((r) => r.name);
}

export function countEventsNamed(db: Db, projectId: string, name: string): number {
  return (sql(db, 'SELECT COUNT(*) AS n FROM events WHERE project_id = ? AND name = ?').get(projectId, name) as { n: number }).n;
}

export function deleteEventsNamed(db: Db, projectId: string, name: string): number {
  return sql(db, 'DELETE FROM events WHERE project_id = ? AND name = ?').run(projectId, name).changes;
}
