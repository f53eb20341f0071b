import { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import type { Guards } from '../http/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../openapi/describe.js';
import { rotateKeys } from './service.js';

/**
 * `/users/@me/...`: the admin token may act on any project, a project's secret key (or an ADMIN of
 * the console) on its own project only.
 */
export function projectRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.post(
    '/users/@me/projects/:id/regenerate-keys',
    describe({ summary: 'New keys', answers: { 200: 'ProjectKeys' } }),
    guards.key('secret', { role: 'ADMIN', adminToken: true }),
    async (ctx, next) => {
      // without a project the admin token passed
      if (ctx.state.project && projectOf(ctx).id !== ctx.params.id) throw notFound('Project');
      const keys = rotateKeys(app.db, app.clock, ctx.params.id!);
      if (!keys) throw notFound('Project');
      ctx.body = keys;
      await next();
    },
  );

  return router;
}
