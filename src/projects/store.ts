import { sql, type Db } from '../store/db.js';
import { cachedRow } from '../store/row-cache.js';
import { hashKey, type KeyKind, type KeyMaker } from './keys.js';
import { allows, type Role } from './roles.js';

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

/**
 * Replaces both keys of a project (old ones stop working at once); the public key is kept to be
 * shown again, the secret one only as a hash. Both carry their maker (the public key only tracks).
 */
export function replaceKeys(db: Db, projectId: string, keys: Record<KeyKind, string>, maker: KeyMaker, now: number): void {
  sql(db, 'DELETE FROM api_keys WHERE project_id = ?').run(projectId);
  for (const kind of ['public', 'secret'] as const) {
    sql(db, 'INSERT INTO api_keys (hash, project_id, kind, shown, role, made_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      hashKey(keys[kind]),
      projectId,
      kind,
      kind === 'public' ? keys.public : null,
      maker.role,
      maker.userId,
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
  /** What the key may do: the role of whoever made it, when it was made. */
  role: Role;
  /** The user who made it; null for the operator's keys. */
  madeBy: string | null;
}

type KeyOwnerRow = ProjectRow & { kind: KeyKind; role: Role; made_by: string | null; maker_role: Role | null; maker_disabled: number | null };

/**
 * The project and powers of a live key; null for an unknown key, and for one whose maker no longer
 * holds its role in the project (removed, demoted, disabled). Every request authenticates:
 * memoized by the key's hash until keys, projects, memberships or users change.
 */
export function findKeyOwner(db: Db, key: string): KeyOwner | null {
  const hash = hashKey(key);
  return cachedRow(db, ['api_keys', 'projects', 'memberships', 'users'], `key-owner:${hash}`, () => {
    const row = sql(
      db,
      `SELECT k.kind, k.role, k.made_by, m.role AS maker_role, u.disabled AS maker_disabled, p.id, p.name, p.disabled, p.track_transactional, p.dkim_ed25519, p.created_at
         FROM api_keys k JOIN projects p ON p.id = k.project_id
         LEFT JOIN memberships m ON m.project_id = k.project_id AND m.user_id = k.made_by AND m.accepted_at IS NOT NULL
         LEFT JOIN users u ON u.id = k.made_by
        WHERE k.hash = ?`,
    ).get(hash) as KeyOwnerRow | undefined;
    if (!row) return null;
    const makerHoldsRole = row.made_by === null || (row.maker_role !== null && row.maker_disabled === 0 && allows(row.maker_role, row.role));
    return makerHoldsRole ? { project: toProject(row), kind: row.kind, role: row.role, madeBy: row.made_by } : null;
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
