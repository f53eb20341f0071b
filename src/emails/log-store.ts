// The email log's records beside the email itself: the page statements of GET /emails, each
// attempt to hand an email over, and what capture mode kept of it.
import { sql, type Db } from '../store/db.js';
import { EMAIL_COLUMNS, type EmailRow, type EmailStatus } from './store.js';

export interface EmailLogQuery {
  /** The recipient, whole and case-insensitive. */
  to: string | null;
  status: EmailStatus | null;
  campaignId: string | null;
  /** created_at bounds in ms, both inclusive. */
  since: number | null;
  until: number | null;
  /** A part of the recipient or of the subject, case-insensitive. */
  search: string | null;
  /** The (created_at, id) of the last email of the previous page. */
  after: { key: number; id: string } | null;
  limit: number;
}

export const isFiltered = (q: EmailLogQuery) => q.to !== null || q.status !== null || q.campaignId !== null || q.search !== null;

/**
 * One page of the log, newest first, as a statement for the reader (it calls budget(): a filter
 * may scan the project). A recipient is found through its contact's index (and the emails sent
 * to no contact); a campaign through the campaign's index; time bounds through the log's.
 */
export function emailPageStatement(projectId: string, q: EmailLogQuery): { text: string; params: unknown[] } {
  // a recipient's emails are found through the contact index: `+` keeps the planner off the log's
  // index, which it would walk in order, reading the whole project for a rare recipient
  const where = ['budget()', q.to !== null ? '+e.project_id = ?' : 'e.project_id = ?'];
  const params: unknown[] = [projectId];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (q.to !== null) {
    add(
      '(e.contact_id = (SELECT id FROM contacts WHERE project_id = ? AND email_lc = ?) OR e.contact_id IS NULL) AND e.to_email = ? COLLATE NOCASE',
      projectId,
      q.to.toLowerCase(),
      q.to,
    );
  }
  if (q.status !== null) add('e.status = ?', q.status);
  if (q.campaignId !== null) add('e.campaign_id = ?', q.campaignId);
  if (q.since !== null) add('e.created_at >= ?', q.since);
  if (q.until !== null) add('e.created_at <= ?', q.until);
  if (q.search !== null) {
    const part = q.search.toLowerCase();
    add('(instr(lower(e.to_email), ?) > 0 OR instr(lower(e.subject), ?) > 0)', part, part);
  }
  if (q.after !== null) add('(e.created_at, e.id) < (?, ?)', q.after.key, q.after.id);
  const columns = EMAIL_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ');
  return { text: `SELECT ${columns} FROM emails e WHERE ${where.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT ?`, params: [...params, q.limit] };
}

/** A page statement's rows on the main connection (the plain log reads `limit` index entries). */
export const emailRows = (db: Db, statement: { text: string; params: unknown[] }): EmailRow[] => sql(db, statement.text).all(...statement.params) as EmailRow[];

export type AttemptOutcome = 'delivered' | 'deferred' | 'bounced';

export interface EmailAttempt {
  at: number;
  /** The server that answered (`name[address]`, the relay's `host:port`, `capture`, `simulator`); null when none was reached. */
  mx: string | null;
  tls: string | null;
  reply: string;
  outcome: AttemptOutcome;
}

export function insertAttempt(db: Db, emailId: string, a: EmailAttempt): void {
  sql(db, 'INSERT INTO email_attempts (email_id, at, mx, tls, reply, outcome) VALUES (?, ?, ?, ?, ?, ?)').run(emailId, a.at, a.mx, a.tls, a.reply, a.outcome);
}

/** The email's attempts, oldest first. */
export const attemptsOf = (db: Db, emailId: string): EmailAttempt[] =>
  sql(db, 'SELECT at, mx, tls, reply, outcome FROM email_attempts WHERE email_id = ? ORDER BY at, rowid').all(emailId) as EmailAttempt[];

export const wasDeferred = (db: Db, emailId: string): boolean =>
  sql(db, `SELECT 1 FROM email_attempts WHERE email_id = ? AND outcome = 'deferred' LIMIT 1`).get(emailId) !== undefined;

/** Capture mode: the email reached the store and no further; `signature` is the header its delivery would have sent in front. */
export function insertCapture(db: Db, emailId: string, signature: Buffer | null, now: number): void {
  sql(db, 'INSERT INTO email_captures (email_id, signature, captured_at) VALUES (?, ?, ?) ON CONFLICT (email_id) DO NOTHING').run(emailId, signature, now);
}

/** The captured email's signature header (empty when it went unsigned or was stored signed); null when it was not captured. */
export function captureOf(db: Db, emailId: string): { signature: Buffer } | null {
  const row = sql(db, 'SELECT signature FROM email_captures WHERE email_id = ?').get(emailId) as { signature: Buffer | null } | undefined;
  return row ? { signature: row.signature ?? Buffer.alloc(0) } : null;
}
