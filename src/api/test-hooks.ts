import { Router } from '@koa/router';
import type { ShiftableClock } from '../clock.js';
import type { Db } from '../store/db.js';
import { readSetting, writeSetting } from '../store/settings.js';
import { describe } from '../http/openapi/describe.js';
import { validate } from '../http/validate.js';
import { invalidKey } from './guards/key-auth.js';
import { isAdminRequest } from '../http/admin.js';
import { jsonBody, MB } from '../http/json-body.js';
import type { ComposeThreads } from '../workers/compose-threads.js';
import type { ApiState } from '../http/state.js';
import type { JobRunner } from '../jobs/runner.js';

const OFFSET_SETTING = 'test.clockOffset';

/** The clock shift a test made before a restart (kept in the store so durable job times stay coherent). */
export function savedClockOffset(db: Db): number {
  return Number(readSetting(db, OFFSET_SETTING) ?? 0);
}

/**
 * Routes that exist only with `testHooks` on: moving the clock so tests never sleep for minutes,
 * which compose pool served which ops (so a test says which thread read a message, not how long
 * another request waited), and a task that exhausts the heavy thread's heap (after `afterMs`), answered as a request that
 * needed more than the thread allows is.
 */
export function testHookRoutes(db: Db, clock: ShiftableClock, threads: ComposeThreads, runner: JobRunner, adminToken: string | null): Router<ApiState> {
  const router = new Router<ApiState>();
  const admin = (authorization: string) => {
    if (!isAdminRequest(adminToken, authorization)) throw invalidKey('This route needs the admin token');
  };
  router.post(
    '/_test/clock',
    describe({ summary: 'Move the clock (testHooks)', auth: 'admin', body: 'test-clock', answers: { 200: 'TestClockResult' } }),
    jsonBody(MB),
    (ctx) => {
      admin(ctx.get('Authorization'));
      const { advanceMs } = validate<{ advanceMs: number }>('test-clock', ctx.state.body);
      clock.advance(advanceMs);
      writeSetting(db, OFFSET_SETTING, String(clock.shiftedBy));
      ctx.body = { now: new Date(clock.now()).toISOString() };
    },
  );
  router.post(
    '/_test/idle',
    describe({ summary: 'Wait until the job runner is idle (testHooks)', auth: 'admin', body: 'test-idle', answers: { 200: 'TestIdleResult' } }),
    jsonBody(MB),
    async (ctx) => {
      admin(ctx.get('Authorization'));
      const { timeoutMs } = validate<{ timeoutMs: number }>('test-idle', ctx.state.body);
      const started = performance.now();
      // idle twice in a row, a turn apart: work a finished job queues is seen before it is claimed
      let quietChecks = 0;
      for (;;) {
        const busy = runner.busy();
        quietChecks = busy.running.length === 0 && !busy.due && !busy.pending ? quietChecks + 1 : 0;
        const waitedMs = Math.round(performance.now() - started);
        if (quietChecks === 2 || waitedMs >= timeoutMs) {
          ctx.body = { idle: quietChecks === 2, waitedMs, running: busy.running, due: busy.due };
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  );
  router.get('/_test/threads', describe({ summary: 'The ops each compose pool served (testHooks)', auth: 'admin', answers: { 200: 'TestThreadsResult' } }), (ctx) => {
    admin(ctx.get('Authorization'));
    ctx.body = { compose: threads.compose.served(), heavy: threads.heavy.served() };
  });
  router.post(
    '/_test/heavy-thread',
    describe({ summary: "Exhaust the heavy thread's heap (testHooks)", auth: 'admin', body: 'test-heavy-thread' }),
    jsonBody(MB),
    async (ctx) => {
      admin(ctx.get('Authorization'));
      const { afterMs } = validate<{ afterMs: number }>('test-heavy-thread', ctx.state.body);
      await threads.heavy.run('exhaustHeap', { afterMs });
    },
  );
  return router;
}
