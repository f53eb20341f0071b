import type { Middleware } from 'koa';
import type { Clock } from '../../clock.js';
import { ApiError, FlatError } from '../../errors.js';
import { claimKey, releaseKey, settleKey } from '../../idempotency/store.js';
import type { Db } from '../../store/db.js';
import { projectOf, type ApiState } from '../../http/state.js';

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Idempotency-Key: the key is claimed (per project) before the work runs. A 4xx answer releases
 * the claim so a corrected request may reuse it; 2xx and 5xx keep it for 24 hours.
 */
export function idempotency(db: Db, clock: Clock): Middleware<ApiState> {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (ctx.headers['idempotency-key'] === undefined) return next();
    if (!VALID_KEY.test(key)) {
      throw new ApiError(400, 'BAD_REQUEST', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const projectId = projectOf(ctx).id;
    const request = `${ctx.method} ${ctx.path}`;
    const existing = claimKey(db, projectId, key, request, clock.now());
    if (existing) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used in this project', {
        details: {
          key,
          originalRequest: existing.request,
          originalRequestAt: new Date(existing.createdAt).toISOString(),
          originalStatusCode: existing.statusCode,
        },
        suggestion: 'Use a new Idempotency-Key for a new request',
      });
    }
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (err) {
      status = err instanceof ApiError || err instanceof FlatError ? err.status : 500;
      throw err;
    } finally {
      if (status >= 400 && status < 500) releaseKey(db, projectId, key);
      else settleKey(db, projectId, key, status);
    }
  };
}
