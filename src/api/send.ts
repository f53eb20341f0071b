import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { MB } from '../http/json-body.js';
import { projectOf, type ApiState } from '../http/state.js';
import { checkSend, parseHeavySend, withHtmlBody, type SendParseOps } from '../send/parse.js';
import { describe } from '../http/openapi/describe.js';
import type { Pools } from '../threads/pool.js';
import { sendEmails } from '../send/service.js';

export function sendRoutes(core: Core, threads: Pools<ComposeOps & SendParseOps>, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  // Bodies over 1 MB take turns (per project, two in the daemon) and are parsed off the main thread.
  router.post(
    '/v1/send',
    describe({ summary: 'Send an email', body: 'send', answers: { 200: 'SendResult' } }),
    guards.key('secret', { bodyLimit: 40 * MB, heavyOver: MB, idempotent: true }),
    async (ctx) => {
      const raw = ctx.state.rawBody;
      const parsed = raw ? await parseHeavySend(threads, raw) : await withHtmlBody(threads, checkSend(ctx.state.body));
      const emails = await sendEmails(core, threads, projectOf(ctx).id, parsed);
      ctx.body = { success: true, data: { emails, timestamp: iso(core.clock.now()) } };
    },
  );

  return router;
}
