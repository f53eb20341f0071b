// Session auth, the second way into the guards beside API keys: the console's cookie, the project
// named in X-Postmill-Project, the user's role there, and for writes the CSRF token and the origin.
import type { Middleware } from 'koa';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { SESSION_COOKIE } from '../../accounts/cookie.js';
import { allows, type Role } from '../../projects/roles.js';
import { liveSession, sessionPolicy, type LiveSession } from '../../accounts/sessions.js';
import { sameSecret } from '../../accounts/tokens.js';
import { ApiError } from '../../errors.js';
import { getProject } from '../../projects/store.js';
import type { Db } from '../../store/db.js';
import { WRITES, type Access } from './key-auth.js';
import type { ApiContext, ApiState } from '../../http/state.js';

export const PROJECT_HEADER = 'X-Postmill-Project';
export const CSRF_HEADER = 'X-Postmill-CSRF';

export interface SessionDeps {
  db: Db;
  clock: Clock;
  config: Config;
}

export const forbidden = (message: string, suggestion?: string) => new ApiError(403, 'FORBIDDEN', message, suggestion ? { suggestion } : {});

const noSession = () => new ApiError(401, 'INVALID_SESSION', 'Not signed in, or the session has ended', { suggestion: 'Sign in again' });

/** Whether the request carries a session cookie (and no Authorization header: a key always wins). */
export const bySession = (c: ApiContext): boolean => !c.get('Authorization') && !!c.cookies.get(SESSION_COOKIE);

/** The origins a console request may come from: publicUrl's, and the listener's own address. */
function ownOrigins(c: ApiContext, publicUrl: string | null): string[] {
  const socket = c.req.socket;
  const host = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
  const origins = [`http://${host}:${socket.localPort}`];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}

function originOf(c: ApiContext): string | null {
  const origin = c.get('Origin');
  if (origin) return origin;
  const referer = c.get('Referer');
  try {
    return referer ? new URL(referer).origin : null;
  } catch {
    // a Referer that is not a URL names no origin (no browser sends one)
    return null;
  }
}

/** Sign-in routes make sessions, so no other site may post to them: an Origin (or Referer) present must be ours. */
export function refuseForeignOrigin(c: ApiContext, publicUrl: string | null): void {
  const origin = originOf(c);
  if (origin !== null && !ownOrigins(c, publicUrl).includes(origin)) throw forbidden('Sign in from the console of this daemon');
}

/** A write through a session must carry the session's CSRF token and come from our own origin. */
function refuseForgery(c: ApiContext, session: LiveSession, publicUrl: string | null): void {
  if (c.method === 'GET' || c.method === 'HEAD') return;
  const token = c.get(CSRF_HEADER);
  if (!token || !sameSecret(token, session.csrfToken)) {
    throw forbidden(`A signed-in request that changes data needs the session's ${CSRF_HEADER} header`, 'Send the csrfToken of POST /auth/login or GET /auth/me');
  }
  const origin = originOf(c);
  if (!origin || !ownOrigins(c, publicUrl).includes(origin)) {
    throw forbidden('A signed-in request that changes data must come from the console (Origin or Referer of this daemon)');
  }
}

/** A live session or 401, CSRF checked for writes. `projectId` asks for the user's role there too. */
function sessionOf(deps: SessionDeps, c: ApiContext, projectId: string | null): LiveSession {
  const token = c.cookies.get(SESSION_COOKIE);
  const session = token ? liveSession(deps.db, deps.clock, sessionPolicy(deps.config), token, projectId) : null;
  if (!session) throw noSession();
  refuseForgery(c, session, deps.config.publicUrl);
  c.state.user = { id: session.userId, email: session.email };
  c.state.session = { hash: session.hash, csrfToken: session.csrfToken };
  return session;
}

/** A signed-in user, whatever the project (the /auth routes). */
export const requireUser = (deps: SessionDeps): Middleware<ApiState> => async (c, next) => {
  sessionOf(deps, c, null);
  await next();
};

/**
 * A signed-in user acting in the project of X-Postmill-Project with a role that allows `needed`.
 * The request state is the one a secret key makes (project, and the rights of a secret key within the role).
 */
export function requireSessionRole(deps: SessionDeps, needed: Role, access: Access): Middleware<ApiState> {
  return async (c, next) => {
    const projectId = c.get(PROJECT_HEADER);
    if (!projectId) throw new ApiError(400, 'BAD_REQUEST', `A signed-in request names its project in the ${PROJECT_HEADER} header`);
    const session = sessionOf(deps, c, projectId);
    if (!session.role) throw forbidden('You have no role in this project');
    if (!allows(session.role, needed)) throw forbidden(`This needs the ${needed} role; yours is ${session.role}`, 'Ask an owner of the project');
    const project = getProject(deps.db, projectId)!;
    const writes = access === 'by-method' ? WRITES.has(c.method) : access === 'write';
    if (project.disabled && writes) throw new ApiError(403, 'PROJECT_DISABLED', 'This project is disabled', { suggestion: 'Ask the operator to enable the project' });
    c.state.project = project;
    c.state.keyKind = 'secret';
    c.state.role = session.role;
    await next();
  };
}
