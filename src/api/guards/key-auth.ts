import type { Middleware } from 'koa';
import { ApiError } from '../../errors.js';
import type { KeyKind } from '../../projects/keys.js';
import { looksLikeKey } from '../../projects/keys.js';
import { allows, type Role } from '../../projects/roles.js';
import { findKeyOwner } from '../../projects/store.js';
import type { Db } from '../../store/db.js';
import { bearerToken } from '../../http/admin.js';
import type { ApiState } from '../../http/state.js';

export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a route changes data: by its method, unless the route says otherwise (a read sent as POST, a check that stores its outcome). */
export type Access = 'read' | 'write' | 'by-method';

export const invalidKey = (message: string) =>
  new ApiError(401, 'INVALID_API_KEY', message, { suggestion: 'Send Authorization: Bearer <key> with a key of this project' });


/**
 * Authenticates by key and pins the request to the key's project. `public` routes take only pk_ keys,
 * `secret` routes only sk_ keys, whose role (the role of whoever made the key) must allow `needed`.
 * A disabled project may read but not write; `access` says whether the route writes where its
 * method would mislead (a POST that only looks up, a GET that verifies).
 */
export function requireKey(db: Db, kind: KeyKind, access: Access = 'by-method', needed: Role = 'MEMBER'): Middleware<ApiState> {
  const wanted = kind === 'public' ? 'a public key (pk_...)' : 'a secret key (sk_...)';
  return async (ctx, next) => {
    const key = bearerToken(ctx.get('Authorization'));
    if (!key) throw invalidKey('Missing API key');
    const owner = looksLikeKey(key) ? findKeyOwner(db, key) : null;
    if (!owner) throw invalidKey('Invalid API key');
    if (owner.kind !== kind) throw invalidKey(`This endpoint requires ${wanted}`);
    const writes = access === 'by-method' ? WRITES.has(ctx.method) : access === 'write';
    if (owner.project.disabled && writes) {
      throw new ApiError(403, 'PROJECT_DISABLED', 'This project is disabled', { suggestion: 'Ask the operator to enable the project' });
    }
    ctx.state.project = owner.project;
    ctx.state.keyKind = owner.kind;
    if (owner.kind === 'secret') {
      // a secret key acts with the rights of the role that made it, never more
      if (!allows(owner.role, needed)) {
        throw new ApiError(403, 'FORBIDDEN', `This needs the ${needed} role; this key acts with ${owner.role}, the role of the member who made it`, {
          suggestion: 'Ask an owner, or use a key that an owner made',
        });
      }
      ctx.state.role = owner.role;
      ctx.state.keyMadeBy = owner.madeBy;
    }
    await next();
  };
}
