import { parseJson, sql, type Db } from '../store/db.js';
import { cachedRow } from '../store/row-cache.js';

export type DomainStatus = 'pending' | 'verified';
export const RECORD_PURPOSES = ['dkim', 'bounce', 'spf', 'dmarc'] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];
/** The verified flag of each published record as the last check found it. */
export type RecordChecks = Partial<Record<RecordPurpose, boolean>>;

export interface Domain {
  id: string;
  projectId: string;
  /** Lower-case ASCII (punycode). */
  domain: string;
  status: DomainStatus;
  /** Marked verified in capture mode, without DNS: nothing it sends leaves the machine. */
  verifiedWithoutDns: boolean;
  checks: RecordChecks;
  failureReason: string | null;
  lastCheckedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface DomainRow {
  id: string;
  project_id: string;
  domain: string;
  status: DomainStatus;
  verified_without_dns: number;
  checks: string;
  failure_reason: string | null;
  last_checked_at: number | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, project_id, domain, status, verified_without_dns, checks, failure_reason, last_checked_at, created_at, updated_at';

const toDomain = (r: DomainRow): Domain => ({
  id: r.id,
  projectId: r.project_id,
  domain: r.domain,
  status: r.status,
  verifiedWithoutDns: r.verified_without_dns === 1,
  checks: parseJson<RecordChecks>(r.checks, {}),
  failureReason: r.failure_reason,
  lastCheckedAt: r.last_checked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function insertDomain(db: Db, d: Domain): void {
  sql(
    db,
    `INSERT INTO domains (${COLUMNS}, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    d.id,
    d.projectId,
    d.domain,
    d.status,
    d.verifiedWithoutDns ? 1 : 0,
    JSON.stringify(d.checks),
    d.failureReason,
    d.lastCheckedAt,
    d.createdAt,
    d.updatedAt,
    d.status === 'verified' ? d.createdAt : null,
  );
}

export function findDomainById(db: Db, projectId: string, id: string): Domain | null {
  const row = sql(db, `SELECT ${COLUMNS} FROM domains WHERE project_id = ? AND id = ?`).get(projectId, id) as DomainRow | undefined;
  return row ? toDomain(row) : null;
}

/** The project's own registration of a name, whatever its status. */
export function findProjectDomainNamed(db: Db, projectId: string, domain: string): { id: string; status: DomainStatus } | null {
  const row = sql(db, 'SELECT id, status FROM domains WHERE project_id = ? AND domain = ?').get(projectId, domain) as
    | { id: string; status: DomainStatus }
    | undefined;
  return row ?? null;
}

/** The verified registrations of these names, in whatever project (a name is verified in one at most), least specific (shortest) first. */
export function findVerifiedNamed(db: Db, names: string[]): { domain: string; projectId: string }[] {
  const rows = sql(
    db,
    "SELECT domain, project_id FROM domains WHERE status = 'verified' AND domain IN (SELECT value FROM json_each(?)) ORDER BY length(domain)",
  ).all(JSON.stringify(names)) as { domain: string; project_id: string }[];
  return rows.map((r) => ({ domain: r.domain, projectId: r.project_id }));
}

/** Deletes claims that were never proved and were registered at or before `createdBefore`; answers how many. */
export function deleteStaleClaims(db: Db, createdBefore: number): number {
  return sql(db, "DELETE FROM domains WHERE status = 'pending' AND verified_at IS NULL AND created_at <= ?").run(createdBefore).changes;
}

export function listProjectDomains(db: Db, projectId: string): Domain[] {
  const rows = sql(db, `SELECT ${COLUMNS} FROM domains WHERE project_id = ? ORDER BY created_at, id`).all(projectId) as DomainRow[];
  return rows.map(toDomain);
}

/** The project's registered domains among `names`, most specific (longest) first; memoized for every send. */
export function findRegisteredAmong(db: Db, projectId: string, names: string[]): Domain[] {
  const key = `domains-among:${projectId}:${names.join(' ')}`;
  return cachedRow(db, ['domains'], key, () => {
    const rows = sql(
      db,
      `SELECT ${COLUMNS} FROM domains WHERE project_id = ? AND domain IN (SELECT value FROM json_each(?)) ORDER BY length(domain) DESC`,
    ).all(projectId, JSON.stringify(names)) as DomainRow[];
    return rows.map(toDomain);
  })!;
}

export function listAllDomains(db: Db): Domain[] {
  return (sql(db, `SELECT ${COLUMNS} FROM domains ORDER BY id`).all() as DomainRow[]).map(toDomain);
}

export interface CheckState {
  status: DomainStatus;
  checks: RecordChecks;
  failureReason: string | null;
  lastCheckedAt: number;
}

/** Stores a check's outcome (the first verification is remembered; a mark of capture mode is replaced); false when the domain was deleted meanwhile. */
export function saveCheck(db: Db, id: string, s: CheckState): boolean {
  return (
    sql(
      db,
      `UPDATE domains SET status = @status, verified_without_dns = 0, checks = @checks, failure_reason = @reason, last_checked_at = @at, updated_at = @at,
       verified_at = CASE WHEN @status = 'verified' THEN COALESCE(verified_at, @at) ELSE verified_at END WHERE id = @id`,
    ).run({ status: s.status, checks: JSON.stringify(s.checks), reason: s.failureReason, at: s.lastCheckedAt, id }).changes === 1
  );
}

export function deleteDomainRow(db: Db, projectId: string, id: string): boolean {
  return sql(db, 'DELETE FROM domains WHERE project_id = ? AND id = ?').run(projectId, id).changes === 1;
}

/** Capture mode: verified without DNS, and marked so; false when the domain does not exist in the project. */
export function markVerifiedWithoutDns(db: Db, projectId: string, id: string, now: number): boolean {
  return (
    sql(
      db,
      `UPDATE domains SET status = 'verified', verified_without_dns = 1, failure_reason = NULL, updated_at = @now, verified_at = COALESCE(verified_at, @now)
       WHERE project_id = @projectId AND id = @id`,
    ).run({ projectId, id, now }).changes === 1
  );
}
