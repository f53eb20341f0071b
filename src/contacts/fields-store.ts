// SQL of the custom data fields. A key is matched as it is (json_each, json_patch), never spelled
// into a JSON path: any key a contact can hold (quotes, backslashes, NUL, dots) is found and removed.
// The counts, and the walk that finds the contacts holding a key, read every contact of the
// project: they run on a reader thread (store/reader.ts).
import { sql, type Db } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';

const ISO_DATE = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'";

/** Per top-level data key and JSON type: how many contacts have it, and how many of the texts look like dates. */
export interface KeyTypeCount {
  key: string;
  type: string;
  n: number;
  dates: number;
}

export function countKeyTypes(reader: Reader, read: ReadOptions): Promise<KeyTypeCount[]> {
  return reader.all<KeyTypeCount>(
    read,
    `SELECT j.key AS key, j.type AS type, COUNT(*) AS n, SUM(j.type = 'text' AND j.atom GLOB ${ISO_DATE}) AS dates
     FROM contacts c, json_each(c.data) j WHERE budget() AND c.project_id = ? AND j.type != 'null' GROUP BY j.key, j.type`,
    [read.projectId],
  );
}

/** A value of one key with its JSON type (`value` is JSON text for objects and arrays, 1/0 for booleans). */
export interface KeyValueCount {
  value: unknown;
  type: string;
  count: number;
}

export function countKeyValues(reader: Reader, read: ReadOptions, key: string, limit: number): Promise<KeyValueCount[]> {
  return reader.all<KeyValueCount>(
    read,
    `SELECT j.value AS value, j.type AS type, COUNT(*) AS count FROM contacts c, json_each(c.data) j
     WHERE budget() AND c.project_id = ? AND j.key = ? AND j.type != 'null' GROUP BY j.value, j.type ORDER BY count DESC, j.value LIMIT ?`,
    [read.projectId, key, limit],
  );
}

/** A window of the project's contacts in id order: where it ends (null when empty), how many it holds, and those that have the key. */
export interface KeyWindow {
  last: string | null;
  size: number;
  withKey: string[];
}

/** The next `size` contacts after `afterId` (a keyset step on contacts(project_id, id)), read on a reader thread. */
export async function keyWindow(reader: Reader, read: ReadOptions, key: string, afterId: string, size: number): Promise<KeyWindow> {
  const rows = await reader.all<{ id: string; has: number }>(
    read,
    `SELECT c.id AS id, EXISTS (SELECT 1 FROM json_each(c.data) j WHERE j.key = ?) AS has FROM contacts c
     WHERE budget() AND c.project_id = ? AND c.id > ? ORDER BY c.id LIMIT ?`,
    [key, read.projectId, afterId, size],
  );
  return { last: rows[rows.length - 1]?.id ?? null, size: rows.length, withKey: rows.filter((r) => r.has === 1).map((r) => r.id) };
}

/** Removes the key from those of `ids` that still have it (a merge patch of `{key: null}`); answers how many. */
export function removeKey(db: Db, projectId: string, key: string, ids: string[], now: number): number {
  return sql(
    db,
    `UPDATE contacts SET data = json_patch(data, json_object(?, json('null'))), updated_at = ?
     WHERE project_id = ? AND id IN (SELECT value FROM json_each(?)) AND EXISTS (SELECT 1 FROM json_each(contacts.data) j WHERE j.key = ?)`,
  ).run(key, now, projectId, JSON.stringify(ids), key).changes;
}
