// The members of a project and their roles, managed by its owners. A project never loses its last OWNER.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { issueLink, setupUrl, signInUrl } from './links.js';
import type { Role } from '../projects/roles.js';
import { countOwners, deleteMembership, findUserByEmail, getMember, insertUser, putMembership, setMemberRole, type Member } from './store.js';
import { userEmail } from './users.js';

export interface Invitation {
  member: Member;
  /** A setup link for a user without a password yet; the sign-in page for one who has it. */
  inviteUrl: string;
}

/** Adds a user to the project (made, with an invitation link, when the email is new); 409 for one already in it. */
export function inviteMember(db: Db, clock: Clock, publicUrl: string, projectId: string, input: { email: string; role: Role }): Invitation {
  const email = userEmail(input.email);
  const user = db.transaction(() => {
    const now = clock.now();
    let found = findUserByEmail(db, email);
    if (found && getMember(db, projectId, found.id)) throw conflict(`${found.email} is a member of this project already`, { userId: found.id });
    if (!found) {
      insertUser(db, { id: randomUUID(), email, passwordHash: null }, now);
      found = findUserByEmail(db, email)!;
    }
    putMembership(db, projectId, found.id, input.role, now);
    return found;
  })();
  const inviteUrl = user.passwordHash === null ? setupUrl(publicUrl, issueLink(db, clock, 'invite', { userId: user.id })) : signInUrl(publicUrl);
  return { member: getMember(db, projectId, user.id)!, inviteUrl };
}

const lastOwner = () => new ApiError(409, 'CONFLICT', 'A project keeps at least one OWNER', { suggestion: 'Make another member OWNER first' });

/** A new role; 409 when it would leave the project without an OWNER. */
export function changeRole(db: Db, projectId: string, userId: string, role: Role): Member {
  return db.transaction(() => {
    if (!setMemberRole(db, projectId, userId, role)) throw notFound('Member');
    if (countOwners(db, projectId) === 0) throw lastOwner();
    return getMember(db, projectId, userId)!;
  })();
}

/** Takes the user out of the project (its sessions stay, they just lose the project); 409 for its last OWNER. */
export function removeMember(db: Db, projectId: string, userId: string): void {
  db.transaction(() => {
    if (!deleteMembership(db, projectId, userId)) throw notFound('Member');
    if (countOwners(db, projectId) === 0) throw lastOwner();
  })();
}
