import { parseJson, sql, type Db } from '../store/db.js';
import type { ContactData } from './data.js';

export interface Contact {
  id: string;
  projectId: string;
  email: string;
  subscribed: boolean;
  data: ContactData;
  createdAt: number;
  updatedAt: number;
}

export interface ContactRow {
  id: string;
  project_id: string;
  email: string;
  email_lc: string;
  subscribed: number;
  data: string;
  created_at: number;
  updated_at: number;
}

export const CONTACT_COLUMNS = 'id, project_id, email, email_lc, subscribed, data, created_at, updated_at';

export const toContact = (r: ContactRow): Contact => ({
  id: r.id,
  projectId: r.project_id,
  email: r.email,
  subscribed: r.subscribed === 1,
  data: parseJson<ContactData>(r.data, {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function findContactById(db: Db, projectId: string, id: string): Contact | null {
  const row = sql(db, `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = ? AND id = ?`).get(projectId, id) as ContactRow | undefined;
  return row ? toContact(row) : null;
}

export function findContactByEmail(db: Db, projectId: string, email: string): Contact | null {
  const row = sql(db, `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = ? AND email_lc = ?`).get(projectId, email.toLowerCase()) as
    | ContactRow
    | undefined;
  return row ? toContact(row) : null;
}

/** Named parameters of a contact row, shared by insert and update. */
const rowParams = (c: Contact) => ({
  id: c.id,
  project_id: c.projectId,
  email: c.email,
  email_lc: c.email.toLowerCase(),
  subscribed: c.subscribed ? 1 : 0,
  data: JSON.stringify(c.data),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/**
 * Inserts the contact unless the project has one with its address: false then (a writer that
 * checked first may have raced another; the caller reads the winner and applies its change to it).
 */
export function insertContact(db: Db, c: Contact): boolean {
  return (
    sql(
      db,
      `INSERT INTO contacts (${CONTACT_COLUMNS}) VALUES (@id, @project_id, @email, @email_lc, @subscribed, @data, @created_at, @updated_at)
       ON CONFLICT (project_id, email_lc) DO NOTHING`,
    ).run(rowParams(c)).changes === 1
  );
}

export function updateContact(db: Db, c: Contact): void {
  sql(
    db,
    `UPDATE contacts SET email = @email, email_lc = @email_lc, subscribed = @subscribed, data = @data, updated_at = @updated_at
     WHERE project_id = @project_id AND id = @id`,
  ).run(rowParams(c));
}

export function deleteContactRow(db: Db, projectId: string, id: string): boolean {
  return sql(db, 'DELETE FROM contacts WHERE project_id = ? AND id = ?').run(projectId, id).changes === 1;
}

/** From the trigger-kept counters: no scan. `subscribed` null counts everyone. */
export function countContacts(db: Db, projectId: string, subscribed: boolean | null = null): number {
  const row = sql(db, 'SELECT total, subscribed FROM contact_counts WHERE project_id = ?').get(projectId) as
    | { total: number; subscribed: number }
    | undefined;
  if (!row) return 0;
  return subscribed === null ? row.total : subscribed ? row.subscribed : row.total - row.subscribed;
}

export function findContactsByEmails(db: Db, projectId: string, emails: string[]): Contact[] {
  const rows = sql(
    db,
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE project_id = ? AND email_lc IN (SELECT lower(value) FROM json_each(?))`,
  ).all(projectId, JSON.stringify(emails)) as ContactRow[];
  return rows.map(toContact);
}

/** The addresses of these contacts of the project, by id (ids of other projects are simply absent). */
export function contactEmailsByIds(db: Db, projectId: string, ids: string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  // `+project_id` keeps the planner on the primary key: the project's index would read all its contacts
  const rows = sql(db, 'SELECT id, email FROM contacts WHERE id IN (SELECT value FROM json_each(?)) AND +project_id = ?').all(JSON.stringify(ids), projectId) as {
    id: string;
    email: string;
  }[];
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** An SQL test over `contacts c` with its bound values; `scan` asks event tests as sets (counts), `seek` per contact (pages). */
export type ContactTest = (shape: 'scan' | 'seek') => { text: string; params: unknown[] };

export interface ContactPageQuery {
  search: string | null;
  subscribed: boolean | null;
  where: ContactTest | null;
  sort: 'email' | 'createdAt';
  dir: 'asc' | 'desc';
  /** The (sort key, id) the page continues after. */
  after: { key: unknown; id: string } | null;
  limit: number;
}

/**
 * The statements of one page of contacts in (sort key, id) order and of the count of every match.
 * Built only from fixed fragments (and the filter engine's, also fixed pieces); every caller value
 * is a bound parameter. Each calls budget(): it may scan the whole project.
 */
export function contactPageStatements(projectId: string, q: ContactPageQuery) {
  const column = q.sort === 'email' ? 'c.email_lc' : 'c.created_at';
  const where = ['budget()', 'c.project_id = ?'];
  const params: unknown[] = [projectId];
  if (q.subscribed !== null) {
    where.push('c.subscribed = ?');
    params.push(q.subscribed ? 1 : 0);
  }
  if (q.search) {
    where.push('instr(c.email_lc, ?) > 0');
    params.push(q.search.toLowerCase());
  }
  const filtered = (shape: 'scan' | 'seek') => {
    const test = q.where?.(shape);
    return { text: [...where, ...(test ? [test.text] : [])].join(' AND '), params: [...params, ...(test?.params ?? [])] };
  };
  const pageFilter = filtered('seek');
  const pageWhere = [pageFilter.text];
  const pageParams = [...pageFilter.params];
  if (q.after) {
    pageWhere.push(`(${column}, c.id) ${q.dir === 'desc' ? '<' : '>'} (?, ?)`);
    pageParams.push(q.after.key, q.after.id);
  }
  const order = q.dir === 'desc' ? 'DESC' : 'ASC';
  const count = filtered('scan');
  return {
    page: { text: `SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE ${pageWhere.join(' AND ')} ORDER BY ${column} ${order}, c.id ${order} LIMIT ?`, params: [...pageParams, q.limit] },
    count: { text: `SELECT COUNT(*) AS n FROM contacts c WHERE ${count.text}`, params: count.params },
  };
}

/** The statement's rows on the main connection (a plain page reads `limit` index entries). */
export const contactRows = (db: Db, statement: { text: string; params: unknown[] }): ContactRow[] => sql(db, statement.text).all(...statement.params) as ContactRow[];

