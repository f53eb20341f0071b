import compose from 'koa-compose';
import type { Middleware } from 'koa';
import type { Ctx } from '../context.js';
import type { KeyKind } from '../projects/keys.js';
import { requireKey } from './auth.js';
import { idempotency } from './idempotency.js';
import { jsonBody, MB } from './json-body.js';
import { rateLimit } from './rate-limit.js';
import { projectOf, type ApiState } from './state.js';

export interface Guards {
  /**
   * Key check, then the project's rate limit, then the JSON body (read only for authenticated callers).
   * `json: false` leaves the body unread for a route that reads its own (the CSV upload); `readOnly`
   * lets a disabled project make a POST that only reads.
   */
  key(kind: KeyKind, opts?: { bodyLimit?: number; idempotent?: boolean; json?: boolean; readOnly?: boolean }): Middleware<ApiState>;
}

export function createGuards(ctx: Ctx): Guards {
  const limit = rateLimit(ctx.clock, ctx.config.rateLimit.perMinute, (c) => projectOf(c).id);
  const keys = { public: requireKey(ctx.db, 'public'), secret: requireKey(ctx.db, 'secret') };
  const readKeys = { public: requireKey(ctx.db, 'public', true), secret: requireKey(ctx.db, 'secret', true) };
  const idem = idempotency(ctx.db, ctx.clock);
  const bodies = new Map<number, Middleware<ApiState>>();
  const body = (size: number) => bodies.get(size) ?? bodies.set(size, jsonBody(size)).get(size)!;
  return {
    key: (kind, opts = {}) => {
      const chain = [(opts.readOnly ? readKeys : keys)[kind], limit];
      if (opts.json !== false) chain.push(body(opts.bodyLimit ?? MB));
      if (opts.idempotent) chain.push(idem);
      return compose(chain);
    },
  };
}
