import compose from 'koa-compose';
import type { Middleware } from 'koa';
import type { Role } from '../../projects/roles.js';
import type { Core } from '../../core.js';
import { markGuard } from '../../http/openapi/describe.js';
import type { KeyKind } from '../../projects/keys.js';
import { isAdminRequest } from '../../http/admin.js';
import { requireKey, type Access } from './key-auth.js';
import { idempotency } from './idempotency.js';
import { admitRequest, type Admission } from '../../limits/admission.js';
import { jsonBody, MB } from '../../http/json-body.js';
import { bySession, requireSessionRole, requireUser } from './session-auth.js';
import { projectOf, type ApiState } from '../../http/state.js';

export interface KeyOptions {
  bodyLimit?: number;
  idempotent?: boolean;
  heavyOver?: number;
  access?: Access;
  json?: boolean;
  /** The least role a signed-in user or a secret key needs (secret routes; default MEMBER). A key has the role of whoever made it. */
  role?: Role;
  /** The configured admin token passes too, for any project (the route then has no project of its own). */
  adminToken?: boolean;
}

export interface Guards {
  /**
   * Key or session check, then the project's rate limit, then the JSON body (read only for
   * authenticated callers). Secret routes take a secret key or a console session whose user has
   * `role` in the project of X-Postmill-Project; public routes take only the public key.
   * `access` overrides the method's verdict on whether the route writes (what a disabled project may
   * not do); `json: false` leaves the body unread for a route that reads its own (the CSV upload).
   */
  key(kind: KeyKind, opts?: KeyOptions): Middleware<ApiState>;
  /** A signed-in user of the console, in no particular project (the /auth routes), then a small JSON body. */
  session(): Middleware<ApiState>;
}

export function createGuards(core: Core, admission: Admission): Guards {
  // answers carry the RateLimit-* headers; a refusal is 429 with Retry-After
  const limit: Middleware<ApiState> = async (c, next) => {
    c.set(admitRequest(admission, projectOf(c).id));
    await next();
  };
  const memo = <T>(cache: Map<string, T>, id: string, make: () => T): T => cache.get(id) ?? cache.set(id, make()).get(id)!;
  const checks = new Map<string, Middleware<ApiState>>();
  const deps = { db: core.db, clock: core.clock, config: core.config };
  /** Public routes: the public key. Secret routes: the secret key, or a session (cookie, and no Authorization header). */
  const authCheck = (kind: KeyKind, access: Access, role: Role) =>
    memo(checks, `${kind}:${access}:${role}`, () => {
      const byKey = requireKey(core.db, kind, access, role);
      if (kind === 'public') return byKey;
      const bySessionRole = requireSessionRole(deps, role, access);
      return (c, next) => (bySession(c) ? bySessionRole(c, next) : byKey(c, next));
    });
  const idem = idempotency(core.db, core.clock);
  const bodies = new Map<string, Middleware<ApiState>>();
  const body = (size: number) => memo(bodies, String(size), () => jsonBody(size));
  return {
    key: (kind, opts = {}) => {
      const bodyLimit = opts.bodyLimit ?? MB;
      const role = opts.role ?? 'MEMBER';
      const reader = opts.heavyOver ? jsonBody(bodyLimit, { over: opts.heavyOver, gate: admission.heavy }) : body(bodyLimit);
      const chain = [authCheck(kind, opts.access ?? 'by-method', role), limit];
      if (opts.json !== false) chain.push(reader);
      if (opts.idempotent) chain.push(idem);
      const guarded = compose(chain);
      const guard: Middleware<ApiState> = opts.adminToken
        ? (c, next) => (isAdminRequest(core.config.adminToken, c.get('Authorization')) ? next() : guarded(c, next))
        : guarded;
      return markGuard(guard, { kind, idempotent: !!opts.idempotent, role: kind === 'secret' ? role : null, adminToken: !!opts.adminToken });
    },
    session: () => markGuard(compose([requireUser(deps), body(16 * 1024)]), { kind: 'session', idempotent: false, role: null, adminToken: false }),
  };
}
