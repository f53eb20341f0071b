import { CONTACT_COLUMNS, toContact, type Contact, type ContactRow } from '../contacts/store.js';
import type { FilterCondition } from '../filters/types.js';
import { parseJson, sql, type Db } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';

export const SEGMENT_TYPES = ['DYNAMIC', 'STATIC'] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

export interface Segment {
  id: string;
  projectId: string;
  name: string;
  slug: string;
  description: string | null;
  type: SegmentType;
  condition: FilterCondition | null;
  trackMembership: boolean;
  memberCount: number;
  countedAt: number | null;
  countMs: number;
  createdAt: number;
  updatedAt: number;
}

interface SegmentRow {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  description: string | null;
  type: SegmentType;
  condition: string | null;
  track_membership: number;
  member_count: number;
  counted_at: number | null;
  count_ms: number;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, project_id, name, slug, description, type, condition, track_membership, member_count, counted_at, count_ms, created_at, updated_at';

const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  type: r.type,
  condition: parseJson<FilterCondition | null>(r.condition, null),
  trackMembership: r.track_membership === 1,
  memberCount: r.member_count,
  countedAt: r.counted_at,
  countMs: r.count_ms,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const rowParams = (s: Segment) => ({
  id: s.id,
  project_id: s.projectId,
  name: s.name,
  slug: s.slug,
  description: s.description,
  type: s.type,
  condition: s.condition === null ? null : JSON.stringify(s.condition),
  track_membership: s.trackMembership ? 1 : 0,
  updated_at: s.updatedAt,
});

export function insertSegment(db: Db, s: Segment): void {
  sql(
    db,
    `INSERT INTO segments (id, project_id, name, slug, description, type, condition, track_membership, created_at, updated_at)
     VALUES (@id, @project_id, @name, @slug, @description, @type, @condition, @track_membership, @updated_at, @updated_at)`,
  ).run(rowParams(s));
}

/** Writes what a PATCH may change (the count is the count job's). */
export function updateSegment(db: Db, s: Segment): void {
  sql(
    db,
    `UPDATE segments SET name = @name, slug = @slug, description = @description, condition = @condition,
       track_membership = @track_membership, updated_at = @updated_at
     WHERE project_id = @project_id AND id = @id`,
  ).run(rowParams(s));
}

export function deleteSegmentRow(db: Db, projectId: string, id: string): void {
  sql(db, 'DELETE FROM segments WHERE project_id = ? AND id = ?').run(projectId, id);
}

export function findSegment(db: Db, projectId: string, id: string): Segment | null {
  const row = sql(db, `SELECT ${COLUMNS} FROM segments WHERE project_id = ? AND id = ?`).get(projectId, id) as SegmentRow | undefined;
  return row ? toSegment(row) : null;
}

/** Every segment of the project, oldest first. */
export function listSegments(db: Db, projectId: string): Segment[] {
  return (sql(db, `SELECT ${COLUMNS} FROM segments WHERE project_id = ? ORDER BY created_at, id`).all(projectId) as SegmentRow[]).map(toSegment);
}

/** The projects that have segments (the periodic recount goes through all of them). */
export function projectsWithSegments(db: Db): string[] {
  return sql(db, 'SELECT DISTINCT project_id FROM segments').pluck().all() as string[];
}

export function recordCount(db: Db, projectId: string, id: string, count: { memberCount: number; at: number; ms: number }): void {
  sql(db, 'UPDATE segments SET member_count = ?, counted_at = ?, count_ms = ? WHERE project_id = ? AND id = ?').run(
    count.memberCount,
    count.at,
    count.ms,
    projectId,
    id,
  );
}

// Member rows: the members of a static segment, the recorded membership of a tracked dynamic one.

/** Adds the rows that are not there yet; answers the contact ids added. */
export function insertMembers(db: Db, projectId: string, segmentId: string, contactIds: readonly string[], at: number): string[] {
  const insert = sql(db, 'INSERT INTO segment_members (segment_id, contact_id, project_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  return contactIds.filter((id) => insert.run(segmentId, id, projectId, at).changes === 1);
}

/** Removes the rows that are there; answers the contact ids removed. */
export function deleteMembers(db: Db, projectId: string, segmentId: string, contactIds: readonly string[]): string[] {
  const remove = sql(db, 'DELETE FROM segment_members WHERE segment_id = ? AND contact_id = ? AND project_id = ?');
  return contactIds.filter((id) => remove.run(segmentId, id, projectId).changes === 1);
}

export function clearMembers(db: Db, projectId: string, segmentId: string): void {
  sql(db, 'DELETE FROM segment_members WHERE segment_id = ? AND project_id = ?').run(segmentId, projectId);
}

// Reads of every member row go to a reader thread (their cost grows with the segment), under the budget of `read`.

export async function countMembers(reader: Reader, read: ReadOptions, segmentId: string): Promise<number> {
  const row = await reader.get<{ n: number }>(read, 'SELECT COUNT(*) AS n FROM segment_members WHERE budget() AND segment_id = ? AND project_id = ?', [segmentId, read.projectId]);
  return row!.n;
}

/** Every member contact id of the segment. */
export function memberIds(reader: Reader, read: ReadOptions, segmentId: string): Promise<string[]> {
  return reader.column<string>(read, 'SELECT contact_id FROM segment_members WHERE budget() AND segment_id = ? AND project_id = ?', [segmentId, read.projectId]);
}

/** One page of a static segment's members, newest contacts first (as the dynamic pages). */
export async function pageMembers(reader: Reader, read: ReadOptions, segmentId: string, page: { offset: number; limit: number }): Promise<Contact[]> {
  const rows = await reader.all<ContactRow>(
    read,
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE budget() AND project_id = ? AND id IN (SELECT contact_id FROM segment_members WHERE budget() AND segment_id = ? AND project_id = ?)
     ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [read.projectId, segmentId, read.projectId, page.limit, page.offset],
  );
  return rows.map(toContact);
}
