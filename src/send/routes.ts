import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Guards } from '../http/guards.js';
import { MB } from '../http/json-body.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../openapi/describe.js';
import type { SendRequest } from './request.js';
import { sendEmails } from './service.js';

export function sendRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.post(
    '/v1/send',
    describe({ summary: 'Send an email', body: 'send', answers: { 200: 'SendResult' } }),
    guards.key('secret', { bodyLimit: 40 * MB, idempotent: true }),
    async (ctx) => {
      const request = validate<SendRequest>('send', ctx.state.body);
      const emails = await sendEmails(app, projectOf(ctx).id, request);
      ctx.body = { success: true, data: { emails, timestamp: iso(app.clock.now()) } };
    },
  );

  return router;
}
