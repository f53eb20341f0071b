import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { dailySeries, overview, seriesDays } from '../stats/service.js';

export function statsRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get('/stats/daily', describe({ summary: 'Email outcomes per UTC day', query: ['days'], answers: { 200: 'StatsDaily' } }), secret, (ctx) => {
    ctx.body = { data: dailySeries(core.db, core.clock, projectOf(ctx).id, seriesDays(ctx.query.days)) };
  });

  router.get('/stats/overview', describe({ summary: 'The queue now, the last 7 days and what needs acting on', answers: { 200: 'StatsOverview' } }), secret, (ctx) => {
    ctx.body = overview(core.db, core.clock, projectOf(ctx).id);
  });

  return router;
}
