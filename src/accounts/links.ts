// One-time links: setup (a user made by the CLI), reset (the CLI's reset-password) and owner (the
// first start: the user is made when the link is used, with the email given then) set a password;
// invite accepts a project's invitation (and sets the password of an account not yet in any
// project). 24 hours, once. A user has one live password link, and one live invitation link per
// project: issuing one never touches the others, so no project's invitation cancels a link that
// someone else gave the user.
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import { deleteExpiredLinks, deleteInvitationLinks, deleteLink, deletePasswordLinksOf, findLink, insertLink, type SetupLink } from './store.js';
import { hashToken, newToken } from './tokens.js';

export const LINK_VALID_MS = 24 * 3600_000;

/** `{publicUrl}/app/setup#token=...`: the token rides in the fragment, which no server log or Referer ever sees. */
export const setupUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/app/setup#token=${token}`;

export type LinkTarget =
  | { purpose: 'setup' | 'reset'; userId: string }
  | { purpose: 'owner'; projectId: string }
  | { purpose: 'invite'; userId: string; projectId: string };

/** A new link (its token; the store keeps the hash). The earlier link of the same user and kind (and project, for an invitation) stops working. */
export function issueLink(db: Db, clock: Clock, target: LinkTarget): string {
  const token = newToken();
  const now = clock.now();
  const link: SetupLink = {
    purpose: target.purpose,
    userId: 'userId' in target ? target.userId : null,
    projectId: 'projectId' in target ? target.projectId : null,
    expiresAt: now + LINK_VALID_MS,
  };
  db.transaction(() => {
    deleteExpiredLinks(db, now);
    if (target.purpose === 'invite') deleteInvitationLinks(db, target.userId, target.projectId);
    else if (target.purpose !== 'owner') deletePasswordLinksOf(db, target.userId);
    insertLink(db, hashToken(token), link, now);
  })();
  return token;
}

export const deadLink = () =>
  new ApiError(400, 'INVALID_SETUP_LINK', 'This link is not valid: it was used already, it expired, or it was replaced by a newer one', {
    suggestion: 'Ask an owner (or the operator: postmill user reset-password) for a new link',
  });

/** The live link of a token, or null (unknown, used or expired). */
export function liveLink(db: Db, clock: Clock, token: string): SetupLink | null {
  const link = findLink(db, hashToken(token));
  return link && link.expiresAt > clock.now() ? link : null;
}

/** Uses the link up, in the caller's transaction: false when another request used it first. */
export const spendLink = (db: Db, token: string): boolean => deleteLink(db, hashToken(token));
