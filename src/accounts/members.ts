// The members of a project and their roles, managed by its owners. A project never loses its last
// OWNER. An owner adds an address to its own project and nothing more: the answer is the same
// whether the address has an account elsewhere or not, and the account's password, links and
// other projects stay as they were.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, conflict, notFound } from '../errors.js';
import type { Db } from '../store/db.js';
import { issueLink, setupUrl } from './links.js';
import type { Role } from '../projects/roles.js';
import { countOwners, deleteInvitationLinks, deleteMembership, findUserByEmail, getMember, insertUser, putInvitation, setMemberRole, type Member } from './store.js';
import { userEmail } from './users.js';

export interface Invitation {
  member: Member;
  /** The invitation link: it accepts the invitation, and sets the password of an account in no project yet. */
  inviteUrl: string;
}

/**
 * Invites an address to the project (an account is made for an address new to the daemon): a
 * membership with no role until accepted through the link answered, which is this project's only.
 * 409 for an address already a member or invited.
 */
export function inviteMember(db: Db, clock: Clock, publicUrl: string, projectId: string, input: { email: string; role: Role }): Invitation {
  const email = userEmail(input.email);
  const userId = db.transaction(() => {
    const now = clock.now();
    const found = findUserByEmail(db, email);
    const existing = found && getMember(db, projectId, found.id);
    if (existing) throw conflict(`${existing.email} is a member of this project already`, { userId: existing.userId });
    const id = found?.id ?? randomUUID();
    if (!found) insertUser(db, { id, email, passwordHash: null }, now);
    putInvitation(db, projectId, id, email, input.role, now);
    return id;
  })();
  const token = issueLink(db, clock, { purpose: 'invite', userId, projectId });
  return { member: getMember(db, projectId, userId)!, inviteUrl: setupUrl(publicUrl, token) };
}

const lastOwner = () => new ApiError(409, 'CONFLICT', 'A project keeps at least one OWNER', { suggestion: 'Make another member OWNER first' });

/** A new role (an invitation's too); 409 when it would leave the project without an OWNER. */
export function changeRole(db: Db, projectId: string, userId: string, role: Role): Member {
  return db.transaction(() => {
    if (!setMemberRole(db, projectId, userId, role)) throw notFound('Member');
    if (countOwners(db, projectId) === 0) throw lastOwner();
    return getMember(db, projectId, userId)!;
  })();
}

/** Takes the user out of the project, or withdraws its invitation (its link stops working); 409 for its last OWNER. */
export function removeMember(db: Db, projectId: string, userId: string): void {
  db.transaction(() => {
    if (!deleteMembership(db, projectId, userId)) throw notFound('Member');
    if (countOwners(db, projectId) === 0) throw lastOwner();
    deleteInvitationLinks(db, userId, projectId);
  })();
}
