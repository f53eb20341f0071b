import compose from 'koa-compose';
import type { Middleware } from 'koa';
import type { Ctx } from '../context.js';
import { markGuard } from '../openapi/describe.js';
import type { KeyKind } from '../projects/keys.js';
import { requireKey, type Access } from './auth.js';
import { idempotency } from './idempotency.js';
import { admitRequest } from './admission.js';
import { jsonBody, MB } from './json-body.js';
import { projectOf, type ApiState } from './state.js';

export interface Guards {
  /**
   * Key check, then the project's rate limit, then the JSON body (read only for authenticated callers).
   * `access` overrides the method's verdict on whether the route writes (what a disabled project may
   * not do); `json: false` leaves the body unread for a route that reads its own (the CSV upload).
   */
  key(kind: KeyKind, opts?: { bodyLimit?: number; idempotent?: boolean; heavyOver?: number; access?: Access; json?: boolean }): Middleware<ApiState>;
}

export function createGuards(ctx: Ctx): Guards {
  // answers carry the RateLimit-* headers; a refusal is 429 with Retry-After
  const limit: Middleware<ApiState> = async (c, next) => {
    c.set(admitRequest(ctx.admission, projectOf(c).id));
    await next();
  };
  const keyChecks = new Map<string, Middleware<ApiState>>();
  const keyCheck = (kind: KeyKind, access: Access) => {
    const id = `${kind}:${access}`;
    return keyChecks.get(id) ?? keyChecks.set(id, requireKey(ctx.db, kind, access)).get(id)!;
  };
  const idem = idempotency(ctx.db, ctx.clock);
  const bodies = new Map<number, Middleware<ApiState>>();
  const body = (size: number) => bodies.get(size) ?? bodies.set(size, jsonBody(size)).get(size)!;
  return {
    key: (kind, opts = {}) => {
      const bodyLimit = opts.bodyLimit ?? MB;
      const reader = opts.heavyOver ? jsonBody(bodyLimit, { over: opts.heavyOver, gate: ctx.admission.heavy }) : body(bodyLimit);
      const chain = [keyCheck(kind, opts.access ?? 'by-method'), limit];
      if (opts.json !== false) chain.push(reader);
      if (opts.idempotent) chain.push(idem);
      return markGuard(compose(chain), { kind, idempotent: !!opts.idempotent });
    },
  };
}
