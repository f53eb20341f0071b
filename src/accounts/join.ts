// Accepting an invitation with its link. The link accepts its own project's invitation and nothing
// else. An account in no project yet, without a password (made by invitations alone), chooses its
// password here; any other account proves the password it has, judged and throttled as a sign-in.
// So no project's invitation sets the password of an account that is in another project, and the
// answers are alike for both (422 for a short password first, then 401 for a wrong one).
import type { Db } from '../store/db.js';
import { deadLink, spendLink } from './links.js';
import { judged, passwordMatches, wrongPair } from './judging.js';
import { startSession } from './sessions.js';
import { acceptInvitation, emailKey, getMember, getUser, hasMembership, setPasswordHash, type SetupLink, type User } from './store.js';
import type { SignInDeps, SignedIn } from './sessions.js';
import { invalidPassword } from './users.js';
import { hashPassword, passwordProblem } from './passwords.js';

/** An account no one uses yet: no password, not disabled, in no project (its invitations are not accepted). */
const unclaimed = (db: Db, user: User) => user.passwordHash === null && !user.disabled && !hasMembership(db, user.id);

/** Accepts the invitation of `link` (an `invite` link: its user and project) and signs its user in. */
export async function acceptWithLink(deps: SignInDeps, link: SetupLink, input: { token: string; password: string; address: string }): Promise<SignedIn> {
  const { db, clock } = deps;
  const projectId = link.projectId!;
  const user = getUser(db, link.userId!);
  if (!user || getMember(db, projectId, user.id)?.status !== 'invited') throw deadLink();
  const problem = passwordProblem(input.password);
  if (problem) throw invalidPassword('password', problem);
  if (unclaimed(db, user)) {
    const hash = await hashPassword(input.password);
    db.transaction(() => {
      // another invitation's link may have claimed it meanwhile: its password stands, this one must prove it
      if (!unclaimed(db, getUser(db, user.id)!)) throw wrongPair();
      if (!spendLink(db, input.token)) throw deadLink();
      setPasswordHash(db, user.id, hash, clock.now());
      acceptInvitation(db, projectId, user.id, clock.now());
    })();
  } else {
    if (!(await judged(deps.throttle, input.address, emailKey(user.email), () => passwordMatches(user, input.password)))) throw wrongPair();
    db.transaction(() => {
      if (!spendLink(db, input.token) || !acceptInvitation(db, projectId, user.id, clock.now())) throw deadLink();
    })();
  }
  return { user: { id: user.id, email: user.email }, ...startSession(db, clock, deps.policy, user.id) };
}
