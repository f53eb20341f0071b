import { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { isAdminRequest } from '../http/admin.js';
import type { Guards } from '../http/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../openapi/describe.js';
import { rotateKeys } from './service.js';

/** `/users/@me/...`: the admin token may act on any project, a project's secret key on its own project only. */
export function projectRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.post(
    '/users/@me/projects/:id/regenerate-keys',
    describe({ summary: 'New keys', auth: 'admin-or-secret', answers: { 200: 'ProjectKeys' } }),
    async (ctx, next) => {
      if (!isAdminRequest(app.config.adminToken, ctx.get('Authorization'))) {
        await secret(ctx, async () => {
          if (projectOf(ctx).id !== ctx.params.id) throw notFound('Project');
        });
      }
      const keys = rotateKeys(app.db, app.clock, ctx.params.id!);
      if (!keys) throw notFound('Project');
      ctx.body = keys;
      await next();
    },
  );

  return router;
}
