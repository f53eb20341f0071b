// The tables of the outbound TLS policy: cached MTA-STS policies, TLS-RPT session counts, reports made.
import { parseJson, sql, type Db } from '../../store/db.js';

export interface StoredStsPolicy {
  recordId: string;
  /** The policy file as served. */
  text: string;
  fetchedAt: number;
  expiresAt: number;
}

export function readStsPolicy(db: Db, domain: string): StoredStsPolicy | null {
  const row = sql(db, 'SELECT record_id, policy, fetched_at, expires_at FROM mta_sts_policies WHERE domain = ?').get(domain) as
    | { record_id: string; policy: string; fetched_at: number; expires_at: number }
    | undefined;
  return row ? { recordId: row.record_id, text: row.policy, fetchedAt: row.fetched_at, expiresAt: row.expires_at } : null;
}

export function saveStsPolicy(db: Db, domain: string, policy: StoredStsPolicy): void {
  sql(
    db,
    `INSERT INTO mta_sts_policies (domain, record_id, policy, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET record_id = excluded.record_id, policy = excluded.policy, fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
  ).run(domain, policy.recordId, policy.text, policy.fetchedAt, policy.expiresAt);
}

/** The UTC day (YYYY-MM-DD) a moment belongs to: TLS-RPT counts and reports by it. */
export const reportDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** One TLS session's outcome as TLS-RPT counts it. */
export interface SessionOutcome {
  day: string;
  policyDomain: string;
  policyType: 'sts' | 'tlsa' | 'no-policy-found';
  policyString: string[];
  /** 'success', or an RFC 8460 result type. */
  resultType: string;
  /** Failures only: the MX host, its address and what went wrong ('' for successes). */
  mxHost: string;
  receivingIp: string;
  detail: string;
}

/**
 * Different failures kept per policy domain and day, at most: a domain whose servers fail in ever
 * new ways (addresses, hosts) still costs a bounded number of rows; past it, a session counts under
 * an existing row of its result type, or is not counted when there is none.
 */
const MAX_ROWS_PER_DOMAIN_DAY = 200;

export function countSession(db: Db, outcome: SessionOutcome): void {
  const policyString = JSON.stringify(outcome.policyString);
  const key = [outcome.day, outcome.policyDomain, outcome.policyType, policyString, outcome.resultType];
  const bump = sql(
    db,
    `UPDATE tls_report_counts SET sessions = sessions + 1
     WHERE day = ? AND policy_domain = ? AND policy_type = ? AND policy_string = ? AND result_type = ? AND mx_host = ? AND receiving_ip = ?`,
  );
  if (bump.run(...key, outcome.mxHost, outcome.receivingIp).changes > 0) return;
  const rows = (sql(db, 'SELECT count(*) AS n FROM tls_report_counts WHERE day = ? AND policy_domain = ?').get(outcome.day, outcome.policyDomain) as { n: number }).n;
  if (rows >= MAX_ROWS_PER_DOMAIN_DAY) {
    sql(
      db,
      `UPDATE tls_report_counts SET sessions = sessions + 1
       WHERE day = ?1 AND policy_domain = ?2 AND policy_type = ?3 AND policy_string = ?4 AND result_type = ?5 AND (mx_host, receiving_ip) = (
         SELECT mx_host, receiving_ip FROM tls_report_counts WHERE day = ?1 AND policy_domain = ?2 AND policy_type = ?3 AND policy_string = ?4 AND result_type = ?5 LIMIT 1)`,
    ).run(...key);
    return;
  }
  sql(
    db,
    `INSERT INTO tls_report_counts (day, policy_domain, policy_type, policy_string, result_type, mx_host, receiving_ip, detail, sessions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)`,
  ).run(...key, outcome.mxHost, outcome.receivingIp, outcome.detail);
}

export interface CountRow {
  policyType: SessionOutcome['policyType'];
  policyString: string[];
  resultType: string;
  mxHost: string;
  receivingIp: string;
  detail: string;
  sessions: number;
}

/**
 * The policy domains with sessions counted on days before `today` and no report made yet, each with
 * the latest such day: one report per policy domain a day (RFC 8460 4.1), however many days of
 * counts waited (reports turned off, then on).
 */
export function domainsToReport(db: Db, today: string): { day: string; policyDomain: string }[] {
  return (
    sql(
      db,
      `SELECT max(c.day) AS day, c.policy_domain FROM tls_report_counts c
       WHERE c.day < ? AND NOT EXISTS (SELECT 1 FROM tls_reports r WHERE r.day = c.day AND r.policy_domain = c.policy_domain)
       GROUP BY c.policy_domain ORDER BY c.policy_domain`,
    ).all(today) as { day: string; policy_domain: string }[]
  ).map((row) => ({ day: row.day, policyDomain: row.policy_domain }));
}

export function countsOf(db: Db, day: string, policyDomain: string): CountRow[] {
  const rows = sql(
    db,
    `SELECT policy_type, policy_string, result_type, mx_host, receiving_ip, detail, sessions FROM tls_report_counts
     WHERE day = ? AND policy_domain = ? ORDER BY policy_type, policy_string, result_type, mx_host, receiving_ip`,
  ).all(day, policyDomain) as { policy_type: CountRow['policyType']; policy_string: string; result_type: string; mx_host: string; receiving_ip: string; detail: string; sessions: number }[];
  return rows.map((row) => ({
    policyType: row.policy_type,
    policyString: parseJson<string[]>(row.policy_string, []),
    resultType: row.result_type,
    mxHost: row.mx_host,
    receivingIp: row.receiving_ip,
    detail: row.detail,
    sessions: row.sessions,
  }));
}

export interface StoredReport {
  reportId: string;
  gzipped: Buffer;
  delivered: string[];
}

/**
 * Keeps a report made from a day's counts and drops the counts, and those of the domain's earlier days
 * never reported (one report a day, the latest): made once, whatever happens to its sending.
 */
export function saveReport(db: Db, day: string, policyDomain: string, reportId: string, gzipped: Buffer, at: number): void {
  db.transaction(() => {
    sql(db, 'INSERT OR IGNORE INTO tls_reports (day, policy_domain, report_id, report, created_at) VALUES (?, ?, ?, ?, ?)').run(day, policyDomain, reportId, gzipped, at);
    sql(db, 'DELETE FROM tls_report_counts WHERE day <= ? AND policy_domain = ?').run(day, policyDomain);
  })();
}

export function readReport(db: Db, day: string, policyDomain: string): StoredReport | null {
  const row = sql(db, 'SELECT report_id, report, delivered FROM tls_reports WHERE day = ? AND policy_domain = ?').get(day, policyDomain) as
    | { report_id: string; report: Buffer; delivered: string }
    | undefined;
  return row ? { reportId: row.report_id, gzipped: row.report, delivered: parseJson<string[]>(row.delivered, []) } : null;
}

export function markDelivered(db: Db, day: string, policyDomain: string, delivered: string[]): void {
  sql(db, 'UPDATE tls_reports SET delivered = ? WHERE day = ? AND policy_domain = ?').run(JSON.stringify(delivered), day, policyDomain);
}

/** Reports (sent or not) older than `beforeDay` are forgotten: bounded, like the counts. */
export function forgetReportsBefore(db: Db, beforeDay: string): void {
  sql(db, 'DELETE FROM tls_reports WHERE day < ?').run(beforeDay);
  sql(db, 'DELETE FROM tls_report_counts WHERE day < ?').run(beforeDay);
}
