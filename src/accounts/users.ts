// Users: made by the CLI or by an owner's invitation, disabled and reset by the CLI.
import { randomUUID } from 'node:crypto';
import { parseEmailAddress } from '../addresses/email.js';
import type { Clock } from '../clock.js';
import { ApiError, conflict, validationFailed } from '../errors.js';
import type { Db } from '../store/db.js';
import { issueLink } from './links.js';
import { hashPassword, passwordProblem } from './passwords.js';
import type { Role } from '../projects/roles.js';
import {
  deleteLinksOf,
  deleteSessionsOf,
  findUserByEmail,
  getUser,
  insertUser,
  listUsers,
  membershipsOf,
  putMembership,
  setPasswordHash,
  setUserDisabled,
  type User,
} from './store.js';

export const invalidPassword = (field: string, problem: string) => validationFailed([{ field, message: problem, code: 'too_small' }], 'The password is not valid');

/** A new password, checked against the one rule and hashed; the field names the form's input. */
export async function newPasswordHash(password: string, field: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw invalidPassword(field, problem);
  return hashPassword(password);
}

/** The address as stored (an internationalised domain in punycode), or a 422 naming `field`. */
export function userEmail(email: string, field = 'email'): string {
  const parsed = parseEmailAddress(email.trim());
  if (!parsed) throw validationFailed([{ field, message: 'Invalid email address', code: 'invalid_string', received: email.slice(0, 100) }]);
  return parsed.address;
}

export interface CreatedUser {
  id: string;
  email: string;
  /** The token of its setup link; null when a password was given. */
  setupToken: string | null;
}

/** A new user, with a password or a setup link, optionally in a project with a role (409 for an email in use). */
export async function createUser(
  db: Db,
  clock: Clock,
  input: { email: string; password: string | null; project: { id: string; role: Role } | null },
): Promise<CreatedUser> {
  const email = userEmail(input.email);
  const passwordHash = input.password === null ? null : await newPasswordHash(input.password, 'password');
  const id = randomUUID();
  db.transaction(() => {
    if (findUserByEmail(db, email)) throw conflict(`A user with the email ${email} exists`);
    insertUser(db, { id, email, passwordHash }, clock.now());
    if (input.project) putMembership(db, input.project.id, id, input.project.role, clock.now());
  })();
  return { id, email, setupToken: passwordHash === null ? issueLink(db, clock, { purpose: 'setup', userId: id }) : null };
}

export interface UserListing {
  id: string;
  email: string;
  disabled: boolean;
  projects: { id: string; role: Role }[];
}

export function listUsersWithProjects(db: Db): UserListing[] {
  return listUsers(db).map((u) => ({
    id: u.id,
    email: u.email,
    disabled: u.disabled,
    projects: membershipsOf(db, u.id).map((m) => ({ id: m.projectId, role: m.role })),
  }));
}

const userOr404 = (user: User | null): User => {
  if (!user) throw new ApiError(404, 'NOT_FOUND', 'User not found');
  return user;
};

/** Disabling ends every session and link of the user at once; enabling lets it sign in again. */
export function setDisabled(db: Db, clock: Clock, id: string, disabled: boolean): User {
  return db.transaction(() => {
    userOr404(getUser(db, id));
    setUserDisabled(db, id, disabled, clock.now());
    if (disabled) {
      deleteSessionsOf(db, id);
      deleteLinksOf(db, id);
    }
    return getUser(db, id)!;
  })();
}

/** The password stops working, every session ends, and a new setup link is made (its token). */
export function resetPassword(db: Db, clock: Clock, id: string): string {
  db.transaction(() => {
    const user = userOr404(getUser(db, id));
    if (user.passwordHash !== null) setPasswordHash(db, id, null, clock.now());
    deleteSessionsOf(db, id);
  })();
  return issueLink(db, clock, { purpose: 'reset', userId: id });
}
