import { Router } from '@koa/router';
import type { ShiftableClock } from '../clock.js';
import { validate } from './validate.js';
import { invalidKey } from './auth.js';
import { isAdminRequest } from './admin.js';
import { jsonBody, MB } from './json-body.js';
import type { ApiState } from './state.js';

/** Routes that exist only with `testHooks` on: moving the clock so tests never sleep for minutes. */
export function testHookRoutes(clock: ShiftableClock, adminToken: string | null): Router<ApiState> {
  const router = new Router<ApiState>();
  router.post('/_test/clock', jsonBody(MB), (ctx) => {
    if (!isAdminRequest(adminToken, ctx.get('Authorization'))) throw invalidKey('This route needs the admin token');
    const { advanceMs } = validate<{ advanceMs: number }>('test-clock', ctx.state.body);
    clock.advance(advanceMs);
    ctx.body = { now: new Date(clock.now()).toISOString() };
  });
  return router;
}
