import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { cursorLimit, decodeCursor } from '../http/pagination.js';
import { listParam, timeBound } from '../http/query.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { activityStats, listActivity } from '../activity/service.js';
import type { ActivitySources } from '../activity/sources.js';

const MAX_TYPES = 20;

export function activityRoutes(core: Core, sources: ActivitySources, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get('/activity', describe({ summary: 'The activity feed, newest first', query: ['limit', 'cursor', 'types', 'contactId', 'from', 'to'], answers: { 200: 'ActivityPage' } }), secret, (ctx) => {
    const contactId = typeof ctx.query.contactId === 'string' && ctx.query.contactId !== '' ? ctx.query.contactId : null;
    ctx.body = listActivity(core, sources, projectOf(ctx).id, {
      limit: cursorLimit(ctx.query.limit),
      cursor: decodeCursor(ctx.query.cursor),
      types: listParam(ctx.query.types, 'types', MAX_TYPES),
      contactId,
      from: timeBound(ctx.query.from, 'from', 0),
      to: timeBound(ctx.query.to, 'to', Number.MAX_SAFE_INTEGER),
    });
  });

  router.get('/activity/stats', describe({ summary: "Totals and rates of the project's whole history", answers: { 200: 'ActivityStats' } }), secret, (ctx) => {
    ctx.body = activityStats(core, projectOf(ctx).id);
  });

  return router;
}
