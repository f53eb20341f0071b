import { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import type { Guards } from '../http/guards.js';
import { cursorLimit, decodeCursor } from '../http/pagination.js';
import { listParam, timeBound } from '../http/query.js';
import { projectOf, type ApiState } from '../http/state.js';
import { activityStats, listActivity } from './service.js';

const MAX_TYPES = 20;

export function activityRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get('/activity', secret, (ctx) => {
    const contactId = typeof ctx.query.contactId === 'string' && ctx.query.contactId !== '' ? ctx.query.contactId : null;
    ctx.body = listActivity(app, projectOf(ctx).id, {
      limit: cursorLimit(ctx.query.limit),
      cursor: decodeCursor(ctx.query.cursor),
      types: listParam(ctx.query.types, 'types', MAX_TYPES),
      contactId,
      from: timeBound(ctx.query.from, 'from', 0),
      to: timeBound(ctx.query.to, 'to', Number.MAX_SAFE_INTEGER),
    });
  });

  router.get('/activity/stats', secret, (ctx) => {
    ctx.body = activityStats(app, projectOf(ctx).id);
  });

  return router;
}
