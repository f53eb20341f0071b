// The DKIM keys of domains (table domain_keys): one active key per algorithm signs, a pending one
// waits to be seen in DNS, retiring ones stay published for the overlap after a rotation.
import { sql, type Db } from '../store/db.js';
import { cachedRow } from '../store/row-cache.js';
import type { DkimAlgorithm, NewDkimKey } from './keys.js';

export type StoredKeyState = 'pending' | 'active' | 'retiring';

export interface DomainKey extends NewDkimKey {
  domainId: string;
  state: StoredKeyState;
  /** What the last check found: null before any (or while lookups failed). */
  published: boolean | null;
  createdAt: number;
  activatedAt: number | null;
  /** When it stopped signing (retiring keys). */
  retiredAt: number | null;
}

interface KeyRow {
  domain_id: string;
  selector: string;
  algorithm: DkimAlgorithm;
  public_key: string;
  private_key: string;
  state: StoredKeyState;
  published: number | null;
  created_at: number;
  activated_at: number | null;
  retired_at: number | null;
}

const COLUMNS = 'k.domain_id, k.selector, k.algorithm, k.public_key, k.private_key, k.state, k.published, k.created_at, k.activated_at, k.retired_at';

const toKey = (r: KeyRow): DomainKey => ({
  domainId: r.domain_id,
  selector: r.selector,
  algorithm: r.algorithm,
  publicKey: r.public_key,
  privateKey: r.private_key,
  state: r.state,
  published: r.published === null ? null : r.published === 1,
  createdAt: r.created_at,
  activatedAt: r.activated_at,
  retiredAt: r.retired_at,
});

/** A key signs from `activatedAt` on (`active`), or waits to be seen in DNS (`pending`). */
export function insertKey(db: Db, domainId: string, key: NewDkimKey, state: 'pending' | 'active', now: number): void {
  sql(
    db,
    'INSERT INTO domain_keys (domain_id, selector, algorithm, public_key, private_key, state, created_at, activated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(domainId, key.selector, key.algorithm, key.publicKey, key.privateKey, state, now, state === 'active' ? now : null);
}

/** The keys of one domain of the project, oldest first. */
export function listDomainKeys(db: Db, projectId: string, domainId: string): DomainKey[] {
  const rows = sql(
    db,
    `SELECT ${COLUMNS} FROM domain_keys k JOIN domains d ON d.id = k.domain_id WHERE d.project_id = ? AND k.domain_id = ? ORDER BY k.created_at, k.selector`,
  ).all(projectId, domainId) as KeyRow[];
  return rows.map(toKey);
}

/** The keys of every domain of the project, by domain id. */
export function listProjectKeys(db: Db, projectId: string): Map<string, DomainKey[]> {
  const rows = sql(db, `SELECT ${COLUMNS} FROM domain_keys k JOIN domains d ON d.id = k.domain_id WHERE d.project_id = ? ORDER BY k.created_at, k.selector`).all(
    projectId,
  ) as KeyRow[];
  const byDomain = new Map<string, DomainKey[]>();
  for (const key of rows.map(toKey)) {
    const keys = byDomain.get(key.domainId);
    if (keys) keys.push(key);
    else byDomain.set(key.domainId, [key]);
  }
  return byDomain;
}

/** The keys a domain of the project signs with now (RSA first); memoized for every delivery. */
export function activeKeys(db: Db, projectId: string, domainId: string): DomainKey[] {
  return cachedRow(db, ['domain_keys'], `domain-keys-active:${projectId}:${domainId}`, () =>
    (
      sql(
        db,
        `SELECT ${COLUMNS} FROM domain_keys k JOIN domains d ON d.id = k.domain_id
         WHERE d.project_id = ? AND k.domain_id = ? AND k.state = 'active' ORDER BY k.algorithm DESC`,
      ).all(projectId, domainId) as KeyRow[]
    ).map(toKey),
  )!;
}

/** A pending key starts signing; the active key of its algorithm, if any, retires. */
export function activateKey(db: Db, domainId: string, selector: string, now: number): void {
  const algorithm = (
    sql(db, "SELECT algorithm FROM domain_keys WHERE domain_id = ? AND selector = ? AND state = 'pending'").get(domainId, selector) as { algorithm: string } | undefined
  )?.algorithm;
  if (!algorithm) return;
  sql(db, "UPDATE domain_keys SET state = 'retiring', retired_at = ? WHERE domain_id = ? AND algorithm = ? AND state = 'active'").run(now, domainId, algorithm);
  sql(db, "UPDATE domain_keys SET state = 'active', activated_at = ?, published = 1 WHERE domain_id = ? AND selector = ?").run(now, domainId, selector);
}

export function savePublished(db: Db, domainId: string, selector: string, published: boolean): void {
  sql(db, 'UPDATE domain_keys SET published = ? WHERE domain_id = ? AND selector = ?').run(published ? 1 : 0, domainId, selector);
}

export function deleteKey(db: Db, domainId: string, selector: string): void {
  sql(db, 'DELETE FROM domain_keys WHERE domain_id = ? AND selector = ?').run(domainId, selector);
}

/**
 * The project's keys of `algorithm` stop signing: active ones retire (kept published for the
 * overlap, for the mail already signed), pending ones never signed and go.
 */
export function retireProjectKeys(db: Db, projectId: string, algorithm: DkimAlgorithm, now: number): void {
  const ofProject = 'domain_id IN (SELECT id FROM domains WHERE project_id = ?)';
  sql(db, `DELETE FROM domain_keys WHERE algorithm = ? AND state = 'pending' AND ${ofProject}`).run(algorithm, projectId);
  sql(db, `UPDATE domain_keys SET state = 'retiring', retired_at = ? WHERE algorithm = ? AND state = 'active' AND ${ofProject}`).run(now, algorithm, projectId);
}

/** Verified domains whose active RSA key signs since `activatedBefore` or earlier and that have no key waiting: due a scheduled rotation. */
export function domainsDueRotation(db: Db, activatedBefore: number): { id: string; projectId: string }[] {
  return sql(
    db,
    `SELECT d.id, d.project_id AS projectId FROM domains d JOIN domain_keys k ON k.domain_id = d.id
     WHERE d.status = 'verified' AND k.algorithm = 'rsa' AND k.state = 'active' AND k.activated_at <= ?
       AND NOT EXISTS (SELECT 1 FROM domain_keys p WHERE p.domain_id = d.id AND p.state = 'pending')
     ORDER BY d.id`,
  ).all(activatedBefore) as { id: string; projectId: string }[];
}
