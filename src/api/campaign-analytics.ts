import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { uuidParam } from '../http/params.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { bucketQuery, campaignAnalytics } from '../campaigns/analytics.js';
import { getCampaign } from '../campaigns/service.js';

export function campaignAnalyticsRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get(
    '/campaigns/:id/analytics',
    describe({ summary: 'Outcomes over time, links clicked and results by recipient domain', query: ['bucket'], answers: { 200: 'CampaignAnalytics' } }),
    guards.key('secret'),
    async (ctx) => {
      const id = uuidParam(ctx.params.id);
      const choice = bucketQuery(ctx.query.bucket);
      ctx.body = await campaignAnalytics(core, getCampaign(core, projectOf(ctx).id, id), choice);
    },
  );

  return router;
}
