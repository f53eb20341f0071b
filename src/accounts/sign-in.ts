// Signing in: with email and password (throttled), or with a link (setup, reset, the first owner's,
// an invitation).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, conflict, validationFailed } from '../errors.js';
import type { Db } from '../store/db.js';
import { acceptWithLink } from './join.js';
import { judged, passwordMatches, wrongPair } from './judging.js';
import { deadLink, liveLink, spendLink } from './links.js';
import { startSession, type SignInDeps, type SignedIn } from './sessions.js';
import { deleteSessionsOf, emailKey, findUserByEmail, getMember, getUser, insertUser, putMembership, setPasswordHash } from './store.js';
import { newPasswordHash, userEmail } from './users.js';


export async function signIn(deps: SignInDeps, input: { email: string; password: string; address: string }): Promise<SignedIn> {
  const user = findUserByEmail(deps.db, input.email.trim());
  if (!(await judged(deps.throttle, input.address, emailKey(input.email.trim()), () => passwordMatches(user, input.password)))) throw wrongPair();
  return { user: { id: user!.id, email: user!.email }, ...startSession(deps.db, deps.clock, deps.policy, user!.id) };
}

/**
 * What the setup page shows before the password is chosen: whose link it is (null: the first owner,
 * who gives an email). An invitation shows the address as the project wrote it and nothing of the
 * account (not whether it has a password or is disabled): its holder may be the inviting owner.
 */
export function inspectLink(db: Db, clock: Clock, token: string): { email: string | null; purpose: string } {
  const link = liveLink(db, clock, token);
  if (!link) throw deadLink();
  if (link.purpose === 'owner') return { email: null, purpose: link.purpose };
  if (link.purpose === 'invite') {
    const invitation = getMember(db, link.projectId!, link.userId!);
    if (invitation?.status !== 'invited') throw deadLink();
    return { email: invitation.email, purpose: link.purpose };
  }
  const user = getUser(db, link.userId!);
  if (!user || user.disabled) throw deadLink();
  return { email: user.email, purpose: link.purpose };
}

/**
 * Uses a link and signs in. An invitation is accepted (join.ts). A setup or reset link sets the
 * password of its user, ends the user's other sessions; the first owner's link makes the user.
 */
export async function useSetupLink(deps: SignInDeps, input: { token: string; password: string; email: string | null; address: string }): Promise<SignedIn> {
  const { db, clock } = deps;
  const link = liveLink(db, clock, input.token);
  if (!link) throw deadLink();
  if (link.purpose === 'invite') return acceptWithLink(deps, link, input);
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
