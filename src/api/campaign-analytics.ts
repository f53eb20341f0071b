import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { badRequest } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { uuidParam } from '../http/params.js';
import { listParam } from '../http/query.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { bucketQuery, campaignAnalytics, compareCampaigns, MAX_COMPARED } from '../campaigns/analytics.js';
import { getCampaign } from '../campaigns/service.js';

/** `?ids=`: the campaigns to compare, comma-separated or repeated, uuids (422 otherwise), at least one. */
function comparedIds(raw: unknown): string[] {
  const ids = listParam(raw, 'ids', MAX_COMPARED);
  if (!ids) throw badRequest('Name the campaigns to compare', `Pass ids=<campaign id>,<campaign id> (at most ${MAX_COMPARED})`);
  return [...new Set(ids.map((id) => uuidParam(id, 'ids')))];
}

/** Mounted before the campaigns' routes: `/campaigns/compare` is not the campaign `compare`. */
export function campaignAnalyticsRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get(
    '/campaigns/compare',
    describe({ summary: 'Campaigns side by side: counters, rates and outcomes over time from each send', query: ['ids', 'bucket'], answers: { 200: 'CampaignComparison' } }),
    secret,
    (ctx) => {
      const ids = comparedIds(ctx.query.ids);
      ctx.body = { data: compareCampaigns(core, projectOf(ctx).id, ids, bucketQuery(ctx.query.bucket)) };
    },
  );

  router.get(
    '/campaigns/:id/analytics',
    describe({ summary: 'Outcomes over time, links clicked and results by recipient domain', query: ['bucket'], answers: { 200: 'CampaignAnalytics' } }),
    secret,
    async (ctx) => {
      const id = uuidParam(ctx.params.id);
      const choice = bucketQuery(ctx.query.bucket);
      ctx.body = await campaignAnalytics(core, getCampaign(core, projectOf(ctx).id, id), choice);
    },
  );

  return router;
}
