// The SQL of the media library (table `media`, migration 109). Lists never read `bytes`.
import { sql, type Db } from '../store/db.js';
import type { ImageType } from './image-type.js';

export interface Media {
  id: string;
  projectId: string;
  name: string;
  type: ImageType;
  size: number;
  width: number;
  height: number;
  createdAt: number;
}

interface MediaRow {
  id: string;
  project_id: string;
  name: string;
  type: ImageType;
  size: number;
  width: number;
  height: number;
  created_at: number;
}

const COLUMNS = 'id, project_id, name, type, size, width, height, created_at';

const toMedia = (r: MediaRow): Media => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  type: r.type,
  size: r.size,
  width: r.width,
  height: r.height,
  createdAt: r.created_at,
});

export function insertMedia(db: Db, m: Media, bytes: Buffer): void {
  sql(db, `INSERT INTO media (${COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(m.id, m.projectId, m.name, m.type, m.size, m.width, m.height, m.createdAt, bytes);
}

/** A page of the project's media, newest first, after the position (created_at, id) of the last one seen. */
export function pageMedia(db: Db, projectId: string, after: { at: number; id: string } | null, limit: number): Media[] {
  const rows = after
    ? sql(db, `SELECT ${COLUMNS} FROM media WHERE project_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`).all(projectId, after.at, after.id, limit)
    : sql(db, `SELECT ${COLUMNS} FROM media WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`).all(projectId, limit);
  return (rows as MediaRow[]).map(toMedia);
}

/** The stored file by its public id, whatever its project: what the public address serves. */
export function mediaFile(db: Db, id: string): { type: ImageType; bytes: Buffer } | null {
  return (sql(db, 'SELECT type, bytes FROM media WHERE id = ?').get(id) as { type: ImageType; bytes: Buffer } | undefined) ?? null;
}

export function deleteMediaRow(db: Db, projectId: string, id: string): boolean {
  return sql(db, 'DELETE FROM media WHERE id = ? AND project_id = ?').run(id, projectId).changes > 0;
}
