// One-time links that set a password: setup (a user made by the CLI), invite (a user added by an
// owner), reset (the CLI's reset-password) and owner (the first start: the user is made when the
// link is used, with the email given then). 24 hours, once; a user has one live link at a time.
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { deleteExpiredLinks, deleteLink, deleteLinksOf, findLink, insertLink, type LinkPurpose, type SetupLink } from './store.js';
import { hashToken, newToken } from './tokens.js';

export const LINK_VALID_MS = 24 * 3600_000;

/** `{publicUrl}/app/setup#token=...`: the token rides in the fragment, which no server log or Referer ever sees. */
export const setupUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/app/setup#token=${token}`;

/** Where a user with a password signs in. */
export const signInUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/app/`;

/** A new link (its token; the store keeps the hash). Earlier links of the same user stop working. */
export function issueLink(db: Db, clock: Clock, purpose: LinkPurpose, target: { userId: string } | { projectId: string }): string {
  const token = newToken();
  const now = clock.now();
  db.transaction(() => {
    deleteExpiredLinks(db, now);
    if ('userId' in target) deleteLinksOf(db, target.userId);
    insertLink(
      db,
      hashToken(token),
      { purpose, userId: 'userId' in target ? target.userId : null, projectId: 'projectId' in target ? target.projectId : null, expiresAt: now + LINK_VALID_MS },
      now,
    );
  })();
  return token;
}

/** The live link of a token, or null (unknown, used or expired). */
export function liveLink(db: Db, clock: Clock, token: string): SetupLink | null {
  const link = findLink(db, hashToken(token));
  return link && link.expiresAt > clock.now() ? link : null;
}

/** Uses the link up, in the caller's transaction: false when another request used it first. */
export const spendLink = (db: Db, token: string): boolean => deleteLink(db, hashToken(token));
