// Signing in: with email and password (throttled), or with a setup link that sets the password.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, conflict, validationFailed } from '../errors.js';
import type { Db } from '../store/db.js';
import { liveLink, spendLink } from './links.js';
import { verifyAgainstDecoy, verifyPassword } from './passwords.js';
import { startSession, type SessionPolicy, type StartedSession } from './sessions.js';
import { deleteSessionsOf, emailKey, findUserByEmail, getUser, insertUser, putMembership, setPasswordHash, type User } from './store.js';
import type { LoginThrottle } from './throttle.js';
import { newPasswordHash, userEmail } from './users.js';

export interface SignedIn extends StartedSession {
  user: { id: string; email: string };
}

export interface SignInDeps {
  db: Db;
  clock: Clock;
  policy: SessionPolicy;
  throttle: LoginThrottle;
}

/** One answer for an unknown email, a wrong password and a disabled user: nothing tells them apart. */
const wrongPair = () =>
  new ApiError(401, 'INVALID_CREDENTIALS', 'The email or the password is not right', { suggestion: 'Check both, or ask an owner for a new setup link' });

export const throttled = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Too many failed sign-ins: try again in ${seconds} seconds`, {
    details: { retryAfter: seconds },
    suggestion: `Retry after ${seconds} seconds`,
    headers: { 'Retry-After': String(seconds) },
  });
};

/**
 * Judges one attempt while it holds its place in the throttle (429 when it may not have one): the
 * place is taken before `judge` runs, so attempts sent at once are bounded as if they came one by one.
 */
async function judged(throttle: LoginThrottle, address: string, account: string, judge: () => Promise<boolean>): Promise<boolean> {
  const place = throttle.take(address, account);
  if (typeof place === 'number') throw throttled(place);
  let verdict: boolean | null = null;
  try {
    verdict = await judge();
    return verdict;
  } finally {
    place.settle(verdict);
  }
}

/** Whether the password is the user's; always one scrypt, whether the user exists, has a password or not. */
async function passwordMatches(user: User | null, password: string): Promise<boolean> {
  if (!user?.passwordHash) return verifyAgainstDecoy(password);
  const ok = await verifyPassword(password, user.passwordHash);
  return ok && !user.disabled;
}

export async function signIn(deps: SignInDeps, input: { email: string; password: string; address: string }): Promise<SignedIn> {
  const user = findUserByEmail(deps.db, input.email.trim());
  if (!(await judged(deps.throttle, input.address, emailKey(input.email.trim()), () => passwordMatches(user, input.password)))) throw wrongPair();
  return { user: { id: user!.id, email: user!.email }, ...startSession(deps.db, deps.clock, deps.policy, user!.id) };
}

const deadLink = () =>
  new ApiError(400, 'INVALID_SETUP_LINK', 'This link is not valid: it was used already, it expired, or it was replaced by a newer one', {
    suggestion: 'Ask an owner (or the operator: postmill user reset-password) for a new link',
  });

/** What the setup page shows before the password is chosen: whose link it is (null: the first owner, who gives an email). */
export function inspectLink(db: Db, clock: Clock, token: string): { email: string | null; purpose: string } {
  const link = liveLink(db, clock, token);
  const user = link?.userId ? getUser(db, link.userId) : null;
  if (!link || (link.userId && (!user || user.disabled))) throw deadLink();
  return { email: user?.email ?? null, purpose: link.purpose };
}

/**
 * Sets the password of the link's user (making the user first, for the first owner's link), uses the
 * link up, ends the user's other sessions and signs in.
 */
export async function useSetupLink(deps: Omit<SignInDeps, 'throttle'>, input: { token: string; password: string; email: string | null }): Promise<SignedIn> {
  const { db, clock } = deps;
  const link = liveLink(db, clock, input.token);
  if (!link) throw deadLink();
  const email = link.userId === null ? userEmail(requiredEmail(input.email)) : null;
  const hash = await newPasswordHash(input.password, 'password');
  const user = db.transaction(() => {
    if (!spendLink(db, input.token)) throw deadLink();
    if (link.userId === null) {
      if (findUserByEmail(db, email!)) throw conflict(`A user with the email ${email} exists`, { field: 'email' });
      const id = randomUUID();
      insertUser(db, { id, email: email!, passwordHash: hash }, clock.now());
      putMembership(db, link.projectId!, id, 'OWNER', clock.now());
      return getUser(db, id)!;
    }
    const existing = getUser(db, link.userId);
    if (!existing || existing.disabled) throw deadLink();
    setPasswordHash(db, existing.id, hash, clock.now());
    deleteSessionsOf(db, existing.id);
    return existing;
  })();
  return { user: { id: user.id, email: user.email }, ...startSession(db, clock, deps.policy, user.id) };
}

function requiredEmail(email: string | null): string {
  if (email === null) throw validationFailed([{ field: 'email', message: 'Required: this link makes a new owner, who signs in with this email', code: 'invalid_type' }]);
  return email;
}

/** A signed-in user's new password: the current one must match; every other session of the user ends. */
export async function changePassword(
  deps: SignInDeps,
  input: { userId: string; sessionHash: string; currentPassword: string; newPassword: string; address: string },
): Promise<void> {
  const user = getUser(deps.db, input.userId);
  if (!user) throw new ApiError(401, 'INVALID_SESSION', 'Sign in again');
  if (!(await judged(deps.throttle, input.address, emailKey(user.email), () => passwordMatches(user, input.currentPassword)))) {
    throw validationFailed([{ field: 'currentPassword', message: 'This is not your current password', code: 'custom' }], 'The current password is not right');
  }
  const hash = await newPasswordHash(input.newPassword, 'newPassword');
  deps.db.transaction(() => {
    setPasswordHash(deps.db, user.id, hash, deps.clock.now());
    deleteSessionsOf(deps.db, user.id, input.sessionHash);
  })();
}
