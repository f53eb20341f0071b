import { parseJson, sql, type Db, type Statement } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';

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

/**
 * The characters of event data one list page holds at most: an event may carry a 1 MB body, and
 * 500 of them were half a gigabyte built for one answer. The first row always comes.
 */
export const PAGE_DATA_BYTES = 4 * 1024 * 1024;

/** A list page: the events, and whether more follow (the last one's position is the cursor). */
export interface EventListPage {
  events: KeyedEvent[];
  hasMore: boolean;
}

/** Where a list page starts: strictly before this (created_at, rowid), or the newest. */
export interface EventCursor {
  at: number;
  key: number;
}

const listQuery = (projectId: string, limit: number, before: EventCursor | null): EventPageQuery => ({
  ...newestPage(projectId, limit + 1),
  ...(before ?? {}),
  maxBytes: PAGE_DATA_BYTES,
});

/** Cuts a page read one row past `limit`: the extra row, or the data budget, says more follow. */
const listPage = ({ rows, cut }: PageRows, limit: number): EventListPage => ({ events: rows.slice(0, limit), hasMore: cut || rows.length > limit });

/** Newest first (insertion order within one millisecond); `name` narrows to one event name. */
export function listEvents(db: Db, projectId: string, name: string | null, limit: number, before: EventCursor | null): EventListPage {
  const q = listQuery(projectId, limit, before);
  return listPage(name === null ? eventsPage(db, q) : eventsPageNamed(db, q, name), limit);
}

export function listContactEvents(db: Db, projectId: string, contactId: string, limit: number, before: EventCursor | null): EventListPage {
  return listPage(eventsPageOfContact(db, listQuery(projectId, limit, before), contactId, null), limit);
}

/** An email's events, oldest first (the first `limit` of them). */
export function eventsOfEmail(db: Db, projectId: string, emailId: string, limit: number): EventRecord[] {
  const rows = sql(db, `SELECT ${EVENT_COLUMNS} FROM events WHERE email_id = ? AND project_id = ? ORDER BY created_at, rowid LIMIT ?`).all(emailId, projectId, limit);
  return (rows as EventRow[]).map(toEvent);
}

export interface NameCount {
  name: string;
  count: number;
}

/** Events per name over the whole history, most frequent first, from the trigger-kept counters (migration 051): a few rows, however many events. */
export function countEventsByName(db: Db, projectId: string): NameCount[] {
  return sql(db, 'SELECT name, count FROM event_counts WHERE project_id = ? AND count > 0 ORDER BY count DESC, name').all(projectId) as NameCount[];
}

/** Events per name in [from, to], most frequent first: every event of the window is read, on a reader thread. */
export function countEventsByNameBetween(reader: Reader, read: ReadOptions, from: number, to: number): Promise<NameCount[]> {
  return reader.all<NameCount>(
    read,
    `SELECT name, COUNT(*) AS count FROM events WHERE budget() AND project_id = ? AND created_at >= ? AND created_at <= ?
     GROUP BY name ORDER BY count DESC, name`,
    [read.projectId, from, to],
  );
}

/** The names of the project's events, from the counters. */
export function eventNames(db: Db, projectId: string): string[] {
  return (sql(db, 'SELECT name FROM event_counts WHERE project_id = ? AND count > 0 ORDER BY name').all(projectId) as { name: string }[]).map((r) => r.name);
}

/** How many events of the project carry the name, from the counters. */
export function countEventsNamed(db: Db, projectId: string, name: string): number {
  return (sql(db, 'SELECT count FROM event_counts WHERE project_id = ? AND name = ?').get(projectId, name) as { count: number } | undefined)?.count ?? 0;
}

/** Deletes at most `limit` events of the name (a batch: see store/batches.ts); answers how many. */
export function deleteEventsNamed(db: Db, projectId: string, name: string, limit: number): number {
  return sql(db, 'DELETE FROM events WHERE rowid IN (SELECT rowid FROM events WHERE project_id = ? AND name = ? LIMIT ?)').run(projectId, name, limit).changes;
}

/** A page of events newest first, strictly before (`at`, `key`) in (created_at, rowid) order. */
export interface EventPageQuery {
  projectId: string;
  limit: number;
  at: number;
  key: number;
  from: number;
  to: number;
  /** Stop once the rows read carry more data than this (the first row always comes). */
  maxBytes?: number;
}

export type KeyedEvent = EventRecord & { key: number };

/** The first page: no cursor, no time window. */
const newestPage = (projectId: string, limit: number): EventPageQuery => ({
  projectId,
  limit,
  at: Number.MAX_SAFE_INTEGER,
  key: Number.MAX_SAFE_INTEGER,
  from: 0,
  to: Number.MAX_SAFE_INTEGER,
});

const PAGE_BOUNDS = 'created_at >= @from AND created_at <= @upper AND (created_at < @at OR rowid < @key)';
const PAGE_ORDER = 'ORDER BY created_at DESC, rowid DESC LIMIT @limit';

const pageParams = (q: EventPageQuery) => ({ project_id: q.projectId, limit: q.limit, at: q.at, key: q.key, from: q.from, upper: Math.min(q.to, q.at) });

/** The rows of a page; `cut` when its data budget ended it before its `limit`. */
export interface PageRows {
  rows: KeyedEvent[];
  cut: boolean;
}

/** Reads rows one at a time (never the whole page at once) until `maxBytes` of data. */
function readPage(statement: Statement, params: Record<string, unknown>, maxBytes = Infinity): PageRows {
  const rows: KeyedEvent[] = [];
  let bytes = 0;
  for (const row of statement.iterate(params) as IterableIterator<EventRow & { key: number }>) {
    bytes += Buffer.byteLength(row.data);
    if (rows.length > 0 && bytes > maxBytes) return { rows, cut: true };
    rows.push({ ...toEvent(row), key: row.key });
  }
  return { rows, cut: false };
}

// Each page query names its index: with a time range bounded on both sides, SQLite's planner
// otherwise takes events_project_time for one name too and reads every event to find a rare one.

/** Every event of the project. */
export function eventsPage(db: Db, q: EventPageQuery): PageRows {
  return readPage(sql(db, `SELECT rowid AS key, ${EVENT_COLUMNS} FROM events INDEXED BY events_project_time WHERE project_id = @project_id AND ${PAGE_BOUNDS} ${PAGE_ORDER}`), pageParams(q), q.maxBytes);
}

/** The events of one name. */
export function eventsPageNamed(db: Db, q: EventPageQuery, name: string): PageRows {
  return readPage(
    sql(db, `SELECT rowid AS key, ${EVENT_COLUMNS} FROM events INDEXED BY events_project_name WHERE project_id = @project_id AND name = @name AND ${PAGE_BOUNDS} ${PAGE_ORDER}`),
    { ...pageParams(q), name },
    q.maxBytes,
  );
}

/** The events of one contact, of the given names only when `names` is not null. */
export function eventsPageOfContact(db: Db, q: EventPageQuery, contactId: string, names: string[] | null): PageRows {
  return readPage(
    sql(
      db,
      `SELECT rowid AS key, ${EVENT_COLUMNS} FROM events INDEXED BY events_contact WHERE contact_id = @contact_id AND project_id = @project_id AND ${PAGE_BOUNDS}
         AND (@names IS NULL OR name IN (SELECT value FROM json_each(@names))) ${PAGE_ORDER}`,
    ),
    { ...pageParams(q), contact_id: contactId, names: names === null ? null : JSON.stringify(names) },
    q.maxBytes,
  );
}
