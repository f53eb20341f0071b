import type { Middleware } from 'koa';
import type { Clock } from '../clock.js';
import type { Ctx } from '../context.js';
import { recurring, scheduleRecurring } from '../jobs/recurring.js';
import type { JobRunner } from '../jobs/runner.js';
import { ApiError, FlatError } from '../errors.js';
import { sql, type Db } from '../store/db.js';
import { projectOf, type ApiState } from './state.js';

const KEEP_MS = 24 * 60 * 60_000;
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

interface Claim {
  request: string;
  status_code: number | null;
  created_at: number;
}

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
    const now = clock.now();
    const existing = db.transaction(() => {
      sql(db, 'DELETE FROM idempotency_keys WHERE project_id = ? AND key = ? AND created_at <= ?').run(projectId, key, now - KEEP_MS);
      const claim = sql(db, 'SELECT request, status_code, created_at FROM idempotency_keys WHERE project_id = ? AND key = ?').get(projectId, key) as
        | Claim
        | undefined;
      if (!claim) {
        sql(db, 'INSERT INTO idempotency_keys (project_id, key, request, created_at) VALUES (?, ?, ?, ?)').run(projectId, key, request, now);
      }
      return claim;
    })();
    if (existing) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used in this project', {
        details: {
          key,
          originalRequest: existing.request,
          originalRequestAt: new Date(existing.created_at).toISOString(),
          originalStatusCode: existing.status_code,
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
      if (status >= 400 && status < 500) {
        sql(db, 'DELETE FROM idempotency_keys WHERE project_id = ? AND key = ?').run(projectId, key);
      } else {
        sql(db, 'UPDATE idempotency_keys SET status_code = ? WHERE project_id = ? AND key = ?').run(status, projectId, key);
      }
    }
  };
}

/** Expired claims are dropped by a periodic sweep. */
export function sweepIdempotencyKeys(db: Db, now: number): number {
  return sql(db, 'DELETE FROM idempotency_keys WHERE created_at <= ?').run(now - KEEP_MS).changes;
}

const SWEEP_JOB = 'sweep.idempotency';
const SWEEP_EVERY_MS = 60 * 60_000;

/** Expired claims are removed every hour. */
export function idempotencyJobs(runner: JobRunner, ctx: Ctx): void {
  runner.register(SWEEP_JOB, recurring(ctx.clock, SWEEP_EVERY_MS, () => void sweepIdempotencyKeys(ctx.db, ctx.clock.now())));
  scheduleRecurring(ctx.jobs, SWEEP_JOB, ctx.clock.now() + SWEEP_EVERY_MS);
}
