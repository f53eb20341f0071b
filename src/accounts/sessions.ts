// Server-side sessions: the cookie holds a random token, the store its hash. A session ends at
// logout, after `console.sessionIdleMinutes` without a request, `console.sessionMaxDays` after it
// began, when its user changes the password (the other sessions) or is disabled (all of them).
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import { deleteEndedSessions, deleteSession, findSession, insertSession, touchSession, type SessionRow } from './store.js';
import type { LoginThrottle } from './throttle.js';
import { hashToken, newToken } from './tokens.js';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

export const sessionPolicy = (config: Config): SessionPolicy => ({
  idleMs: config.console.sessionIdleMinutes * 60_000,
  maxMs: config.console.sessionMaxDays * 24 * 3600_000,
});

/** last_seen_at is written at most once a minute per session: idle expiry to the minute, not a write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface StartedSession {
  /** The cookie's value: shown to the browser once, never stored. */
  token: string;
  csrfToken: string;
}

export function startSession(db: Db, clock: Clock, policy: SessionPolicy, userId: string): StartedSession {
  const now = clock.now();
  const token = newToken();
  const csrfToken = newToken();
  db.transaction(() => {
    deleteEndedSessions(db, now, now - policy.idleMs);
    insertSession(db, { hash: hashToken(token), userId, csrfToken, expiresAt: now + policy.maxMs }, now);
  })();
  return { token, csrfToken };
}

export interface LiveSession extends SessionRow {
  /** The hash of the cookie: what names this session in the store. */
  hash: string;
}

/**
 * The live session of a cookie, with the user's role in `projectId` (null for none asked); null when
 * there is none, it has expired, or its user is disabled. Seeing it keeps it alive.
 */
export function liveSession(db: Db, clock: Clock, policy: SessionPolicy, token: string, projectId: string | null): LiveSession | null {
  const hash = hashToken(token);
  const session = findSession(db, hash, projectId);
  if (!session) return null;
  const now = clock.now();
  if (now >= session.expiresAt || now - session.lastSeenAt >= policy.idleMs) {
    deleteSession(db, hash);
    return null;
  }
  if (session.disabled) return null;
  if (now - session.lastSeenAt >= TOUCH_EVERY_MS) touchSession(db, hash, now);
  return { ...session, hash };
}

export function endSession(db: Db, hash: string): void {
  deleteSession(db, hash);
}

/** A user signed in: the session started for them. */
export interface SignedIn extends StartedSession {
  user: { id: string; email: string };
}

/** What signing in needs: the store, the clock, the session policy and the login throttle (sign-in.ts, join.ts). */
export interface SignInDeps {
  db: Db;
  clock: Clock;
  policy: SessionPolicy;
  throttle: LoginThrottle;
}
