import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Guards } from '../http/guards.js';
import { MB } from '../http/json-body.js';
import { projectOf, type ApiState } from '../http/state.js';
import { checkSend, parseHeavySend, withHtmlBody } from './parse.js';
import { describe } from '../openapi/describe.js';
import { sendEmails } from './service.js';

export function sendRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  // Bodies over 1 MB take turns (per project, two in the daemon) and are parsed off the main thread.
  router.post(
    '/v1/send',
    describe({ summary: 'Send an email', body: 'send', answers: { 200: 'SendResult' } }),
    guards.key('secret', { bodyLimit: 40 * MB, heavyOver: MB, idempotent: true }),
    async (ctx) => {
      const raw = ctx.state.rawBody;
      const parsed = raw ? await parseHeavySend(app, raw) : await withHtmlBody(app, checkSend(ctx.state.body));
      const emails = await sendEmails(app, projectOf(ctx).id, parsed);
      ctx.body = { success: true, data: { emails, timestamp: iso(app.clock.now()) } };
    },
  );

  return router;
}
