import { sql, type Db } from '../store/db.js';
import { cachedRow } from '../store/row-cache.js';
import { hashKey, type KeyKind } from './keys.js';

export interface Project {
  id: string;
  name: string;
  disabled: boolean;
  /** Open and click tracking for TRANSACTIONAL mail (always on for marketing, campaign and workflow mail). */
  trackTransactional: boolean;
  /** Each domain signs with Ed25519 (RFC 8463) beside RSA. */
  dkimEd25519: boolean;
  createdAt: number;
}

interface ProjectRow {
  id: string;
  name: string;
  disabled: number;
  track_transactional: number;
  dkim_ed25519: number;
  created_at: number;
}

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  name: r.name,
  disabled: r.disabled === 1,
  trackTransactional: r.track_transactional === 1,
  dkimEd25519: r.dkim_ed25519 === 1,
  createdAt: r.created_at,
});

const PROJECT_COLUMNS = 'id, name, disabled, track_transactional, dkim_ed25519, created_at';

export function insertProject(db: Db, id: string, name: string, now: number): void {
  sql(db, 'INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, name, now, now);
}

export function listProjects(db: Db): Project[] {
  return (sql(db, `SELECT ${PROJECT_COLUMNS} FROM projects ORDER BY created_at, id`).all() as ProjectRow[]).map(toProject);
}

export function getProject(db: Db, id: string): Project | null {
  return cachedRow(db, ['projects'], `project:${id}`, () => {
    const row = sql(db, `SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = ?`).get(id) as ProjectRow | undefined;
    return row ? toProject(row) : null;
  });
}

export function countProjects(db: Db): number {
  return (sql(db, 'SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n;
}

export function setDisabled(db: Db, id: string, disabled: boolean, now: number): boolean {
  return sql(db, 'UPDATE projects SET disabled = ?, updated_at = ? WHERE id = ?').run(disabled ? 1 : 0, now, id).changes === 1;
}

export function setTrackTransactional(db: Db, id: string, on: boolean, now: number): boolean {
  return sql(db, 'UPDATE projects SET track_transactional = ?, updated_at = ? WHERE id = ?').run(on ? 1 : 0, now, id).changes === 1;
}

export function setDkimEd25519(db: Db, id: string, on: boolean, now: number): boolean {
  return sql(db, 'UPDATE projects SET dkim_ed25519 = ?, updated_at = ? WHERE id = ?').run(on ? 1 : 0, now, id).changes === 1;
}

/** Replaces both keys of a project (old ones stop working at once); the public key is kept to be shown again, the secret one only as a hash. */
export function replaceKeys(db: Db, projectId: string, keys: Record<KeyKind, string>, now: number): void {
  sql(db, 'DELETE FROM api_keys WHERE project_id = ?').run(projectId);
  for (const kind of ['public', 'secret'] as const) {
    sql(db, 'INSERT INTO api_keys (hash, project_id, kind, shown, created_at) VALUES (?, ?, ?, ?, ?)').run(
      hashKey(keys[kind]),
      projectId,
      kind,
      kind === 'public' ? keys.public : null,
      now,
    );
  }
}

/** The project's public key (null when it was made before public keys were kept) and when its keys were made. */
export function findPublicKey(db: Db, projectId: string): { publicKey: string | null; createdAt: number } | null {
  const row = sql(db, "SELECT shown, created_at FROM api_keys WHERE project_id = ? AND kind = 'public'").get(projectId) as { shown: string | null; created_at: number } | undefined;
  return row ? { publicKey: row.shown, createdAt: row.created_at } : null;
}

export interface KeyOwner {
  project: Project;
  kind: KeyKind;
}

/** Every request authenticates: memoized by the key's hash until keys or projects change. */
export function findKeyOwner(db: Db, key: string): KeyOwner | null {
  const hash = hashKey(key);
  return cachedRow(db, ['api_keys', 'projects'], `key-owner:${hash}`, () => {
    const row = sql(
      db,
      `SELECT k.kind, p.id, p.name, p.disabled, p.track_transactional, p.created_at FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.hash = ?`,
    ).get(hash) as (ProjectRow & { kind: KeyKind }) | undefined;
    return row ? { project: toProject(row), kind: row.kind } : null;
  });
}

export const findWebhookSecret = (db: Db, projectId: string): string | null =>
  (sql(db, 'SELECT webhook_secret FROM projects WHERE id = ?').get(projectId) as { webhook_secret: string | null } | undefined)?.webhook_secret ?? null;

/** Sets the secret where the project has none (another process may have made one meanwhile). */
export function setWebhookSecretIfNone(db: Db, projectId: string, secret: string): void {
  sql(db, 'UPDATE projects SET webhook_secret = ? WHERE id = ? AND webhook_secret IS NULL').run(secret, projectId);
}

/** Replaces the secret; false for an unknown project. */
export const replaceWebhookSecret = (db: Db, projectId: string, secret: string): boolean =>
  sql(db, 'UPDATE projects SET webhook_secret = ? WHERE id = ?').run(secret, projectId).changes === 1;
