// The SQL of users, memberships, sessions and setup links.
import { sql, type Db } from '../store/db.js';
import type { Role } from '../projects/roles.js';

export interface User {
  id: string;
  email: string;
  /** null until the user has used a setup or invitation link. */
  passwordHash: string | null;
  disabled: boolean;
  createdAt: number;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  disabled: number;
  created_at: number;
}

const toUser = (r: UserRow): User => ({ id: r.id, email: r.email, passwordHash: r.password_hash, disabled: r.disabled === 1, createdAt: r.created_at });
const USER_COLUMNS = 'id, email, password_hash, disabled, created_at';

export const emailKey = (email: string) => email.toLowerCase();

export function insertUser(db: Db, user: { id: string; email: string; passwordHash: string | null }, now: number): void {
  sql(db, 'INSERT INTO users (id, email, email_lc, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    user.id,
    user.email,
    emailKey(user.email),
    user.passwordHash,
    now,
    now,
  );
}

export function getUser(db: Db, id: string): User | null {
  const row = sql(db, `SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(id) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function findUserByEmail(db: Db, email: string): User | null {
  const row = sql(db, `SELECT ${USER_COLUMNS} FROM users WHERE email_lc = ?`).get(emailKey(email)) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export function listUsers(db: Db): User[] {
  return (sql(db, `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, id`).all() as UserRow[]).map(toUser);
}

export function setPasswordHash(db: Db, id: string, hash: string | null, now: number): void {
  sql(db, 'UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?').run(hash, now, id);
}

export function setUserDisabled(db: Db, id: string, disabled: boolean, now: number): boolean {
  return sql(db, 'UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?').run(disabled ? 1 : 0, now, id).changes === 1;
}

// --- memberships

export interface Membership {
  projectId: string;
  projectName: string;
  role: Role;
}

/** Invited: not yet accepted (no role until then); disabled: accepted, and the operator disabled the user. */
export type MemberStatus = 'invited' | 'active' | 'disabled';

export interface Member {
  userId: string;
  /** The address as the project invited it until the invitation is accepted, then the account's. */
  email: string;
  role: Role;
  status: MemberStatus;
  createdAt: number;
}

interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  accepted: number;
  disabled: number;
  created_at: number;
}

const toMember = (r: MemberRow): Member => ({
  userId: r.user_id,
  email: r.email,
  role: r.role,
  status: r.accepted === 0 ? 'invited' : r.disabled === 1 ? 'disabled' : 'active',
  createdAt: r.created_at,
});

// an invitation shows nothing of the account but its id: not how its address is written, not whether it is disabled
const MEMBER_SELECT = `SELECT m.user_id, CASE WHEN m.accepted_at IS NULL THEN m.invited_email ELSE u.email END AS email, m.role,
    m.accepted_at IS NOT NULL AS accepted, u.disabled, m.created_at
  FROM memberships m JOIN users u ON u.id = m.user_id`;

/** Adds the user to the project, accepted (the operator's doing, the first owner). */
export function putMembership(db: Db, projectId: string, userId: string, role: Role, now: number): void {
  sql(db, 'INSERT INTO memberships (project_id, user_id, role, created_at, accepted_at) VALUES (?, ?, ?, ?, ?)').run(projectId, userId, role, now, now);
}

/** Invites the user to the project as `email` (the address as the project wrote it): no role until accepted. */
export function putInvitation(db: Db, projectId: string, userId: string, email: string, role: Role, now: number): void {
  sql(db, 'INSERT INTO memberships (project_id, user_id, role, created_at, invited_email) VALUES (?, ?, ?, ?, ?)').run(projectId, userId, role, now, email);
}

/** The invitation becomes a membership; false when there is no invitation (accepted already, or withdrawn). */
export function acceptInvitation(db: Db, projectId: string, userId: string, now: number): boolean {
  return sql(db, 'UPDATE memberships SET accepted_at = ? WHERE project_id = ? AND user_id = ? AND accepted_at IS NULL').run(now, projectId, userId).changes === 1;
}

/** Whether the user is in any project yet (an accepted membership). */
export function hasMembership(db: Db, userId: string): boolean {
  return sql(db, 'SELECT 1 FROM memberships WHERE user_id = ? AND accepted_at IS NOT NULL LIMIT 1').get(userId) !== undefined;
}

export function listMembers(db: Db, projectId: string): Member[] {
  return (sql(db, `${MEMBER_SELECT} WHERE m.project_id = ? ORDER BY m.created_at, u.email_lc`).all(projectId) as MemberRow[]).map(toMember);
}

export function getMember(db: Db, projectId: string, userId: string): Member | null {
  const row = sql(db, `${MEMBER_SELECT} WHERE m.project_id = ? AND m.user_id = ?`).get(projectId, userId) as MemberRow | undefined;
  return row ? toMember(row) : null;
}

export function setMemberRole(db: Db, projectId: string, userId: string, role: Role): boolean {
  return sql(db, 'UPDATE memberships SET role = ? WHERE project_id = ? AND user_id = ?').run(role, projectId, userId).changes === 1;
}

export function deleteMembership(db: Db, projectId: string, userId: string): boolean {
  return sql(db, 'DELETE FROM memberships WHERE project_id = ? AND user_id = ?').run(projectId, userId).changes === 1;
}

/** The OWNERs who can act: invitations not yet accepted do not count. */
export function countOwners(db: Db, projectId: string): number {
  return (sql(db, "SELECT COUNT(*) AS n FROM memberships WHERE project_id = ? AND role = 'OWNER' AND accepted_at IS NOT NULL").get(projectId) as { n: number }).n;
}

/** The projects of a user with its role in each, by project name; invitations not yet accepted are not among them. */
export function membershipsOf(db: Db, userId: string): Membership[] {
  const rows = sql(
    db,
    'SELECT p.id, p.name, m.role FROM memberships m JOIN projects p ON p.id = m.project_id WHERE m.user_id = ? AND m.accepted_at IS NOT NULL ORDER BY p.name, p.id',
  ).all(userId) as {
    id: string;
    name: string;
    role: Role;
  }[];
  return rows.map((r) => ({ projectId: r.id, projectName: r.name, role: r.role }));
}

// --- sessions

export interface SessionRow {
  userId: string;
  email: string;
  disabled: boolean;
  csrfToken: string;
  lastSeenAt: number;
  expiresAt: number;
  /** The user's role in the project asked about; null without one, with an invitation not yet accepted, or when none was asked. */
  role: Role | null;
}

export function insertSession(db: Db, s: { hash: string; userId: string; csrfToken: string; expiresAt: number }, now: number): void {
  sql(db, 'INSERT INTO sessions (hash, user_id, csrf_token, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    s.hash,
    s.userId,
    s.csrfToken,
    now,
    now,
    s.expiresAt,
  );
}

/** The session of a cookie's hash with its user, and the user's role in `projectId`: one read per request. */
export function findSession(db: Db, hash: string, projectId: string | null): SessionRow | null {
  const row = sql(
    db,
    `SELECT s.user_id, u.email, u.disabled, s.csrf_token, s.last_seen_at, s.expires_at, m.role
       FROM sessions s JOIN users u ON u.id = s.user_id
       LEFT JOIN memberships m ON m.user_id = s.user_id AND m.project_id = ? AND m.accepted_at IS NOT NULL
      WHERE s.hash = ?`,
  ).get(projectId, hash) as
    | { user_id: string; email: string; disabled: number; csrf_token: string; last_seen_at: number; expires_at: number; role: Role | null }
    | undefined;
  if (!row) return null;
  return {
    userId: row.user_id,
    email: row.email,
    disabled: row.disabled === 1,
    csrfToken: row.csrf_token,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    role: row.role,
  };
}

export function touchSession(db: Db, hash: string, now: number): void {
  sql(db, 'UPDATE sessions SET last_seen_at = ? WHERE hash = ?').run(now, hash);
}

export function deleteSession(db: Db, hash: string): void {
  sql(db, 'DELETE FROM sessions WHERE hash = ?').run(hash);
}

/** Ends every session of the user, but `keep` (the one that changed the password). */
export function deleteSessionsOf(db: Db, userId: string, keep: string | null = null): number {
  return sql(db, 'DELETE FROM sessions WHERE user_id = ? AND hash IS NOT ?').run(userId, keep).changes;
}

/** Sessions past their absolute expiry, or idle since before `idleBefore`. */
export function deleteEndedSessions(db: Db, now: number, idleBefore: number): void {
  sql(db, 'DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?').run(now, idleBefore);
}

// --- setup links

export type LinkPurpose = 'setup' | 'invite' | 'reset' | 'owner';

/**
 * setup and reset: the user's password (no project); owner: the first owner of the project (no
 * user yet); invite: the user's invitation to the project (both).
 */
export interface SetupLink {
  purpose: LinkPurpose;
  userId: string | null;
  projectId: string | null;
  expiresAt: number;
}

export function insertLink(db: Db, hash: string, link: SetupLink, now: number): void {
  sql(db, 'INSERT INTO setup_links (hash, purpose, user_id, project_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    hash,
    link.purpose,
    link.userId,
    link.projectId,
    now,
    link.expiresAt,
  );
}

export function findLink(db: Db, hash: string): SetupLink | null {
  const row = sql(db, 'SELECT purpose, user_id, project_id, expires_at FROM setup_links WHERE hash = ?').get(hash) as
    | { purpose: LinkPurpose; user_id: string | null; project_id: string | null; expires_at: number }
    | undefined;
  return row ? { purpose: row.purpose, userId: row.user_id, projectId: row.project_id, expiresAt: row.expires_at } : null;
}

/** Takes a link out of the store; false when it was already gone (used by a request just before). */
export function deleteLink(db: Db, hash: string): boolean {
  return sql(db, 'DELETE FROM setup_links WHERE hash = ?').run(hash).changes === 1;
}

/** Every link of the user: its password's and its invitations'. */
export function deleteLinksOf(db: Db, userId: string): void {
  sql(db, 'DELETE FROM setup_links WHERE user_id = ?').run(userId);
}

/** The user's setup and reset links (those that name no project), not its invitations. */
export function deletePasswordLinksOf(db: Db, userId: string): void {
  sql(db, 'DELETE FROM setup_links WHERE user_id = ? AND project_id IS NULL').run(userId);
}

/** The user's invitation links to one project. */
export function deleteInvitationLinks(db: Db, userId: string, projectId: string): void {
  sql(db, 'DELETE FROM setup_links WHERE user_id = ? AND project_id = ?').run(userId, projectId);
}

export function deleteExpiredLinks(db: Db, now: number): void {
  sql(db, 'DELETE FROM setup_links WHERE expires_at <= ?').run(now);
}
