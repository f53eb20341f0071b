import compose from 'koa-compose';
import type { Middleware } from 'koa';
import type { Ctx } from '../context.js';
import type { KeyKind } from '../projects/keys.js';
import { requireKey } from './auth.js';
import { idempotency } from './idempotency.js';
import { FairGate } from './fair-gate.js';
import { jsonBody, MB } from './json-body.js';
import { rateLimit } from './rate-limit.js';
import { projectOf, type ApiState } from './state.js';

export interface Guards {
  /** Key check, then the project's rate limit, then the JSON body (read only for authenticated callers). */
  key(kind: KeyKind, opts?: { bodyLimit?: number; idempotent?: boolean; heavyOver?: number }): Middleware<ApiState>;
}

export function createGuards(ctx: Ctx): Guards {
  const limit = rateLimit(ctx.clock, ctx.config.rateLimit.perMinute, (c) => projectOf(c).id);
  const keys = { public: requireKey(ctx.db, 'public'), secret: requireKey(ctx.db, 'secret') };
  const idem = idempotency(ctx.db, ctx.clock);
  const bodies = new Map<number, Middleware<ApiState>>();
  const body = (size: number) => bodies.get(size) ?? bodies.set(size, jsonBody(size)).get(size)!;
  // Two heavy requests in the daemon at once (one being read while the other composes), one per project.
  const heavyGate = new FairGate(2, 32);
  return {
    key: (kind, opts = {}) => {
      const bodyLimit = opts.bodyLimit ?? MB;
      const reader = opts.heavyOver ? jsonBody(bodyLimit, { over: opts.heavyOver, gate: heavyGate }) : body(bodyLimit);
      const chain = [keys[kind], limit, reader];
      if (opts.idempotent) chain.push(idem);
      return compose(chain);
    },
  };
}
