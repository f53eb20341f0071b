import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { pageParams, pageResult, sortParams } from '../http/pagination.js';
import { enumQuery, uuidParam } from '../http/params.js';
import { testSendAnswer } from '../compose/test-send.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { validate } from '../http/validate.js';
import { presentCampaign } from '../campaigns/present.js';
import { checkAudience, countAudienceParts } from '../campaigns/audience.js';
import {
  audienceOf,
  campaignStats,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  replaceCampaign,
  previewCampaign,
  sendCampaign,
  testCampaign,
  type CampaignInput,
  type CampaignPreviewInput,
} from '../campaigns/service.js';
import type { TemplateType } from '../templates/store.js';
import { CAMPAIGN_STATUSES, listCampaigns } from '../campaigns/store.js';
import type { Pools } from '../threads/pool.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import type { Usages } from '../usage/usages.js';
import { readFor } from '../store/reader.js';

export function campaignRoutes(core: Core, { threads, usage }: { threads: Pools<ComposeOps>; usage: Usages }, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');
  // POSTs that store nothing: a disabled project may preview and count
  const secretRead = guards.key('secret', { access: 'read' });
  const id = (params: Record<string, string | undefined>) => uuidParam(params.id);

  router.get('/campaigns', describe({ summary: 'List campaigns', query: ['page', 'pageSize', 'status', 'search', 'sort', 'dir'], answers: { 200: 'CampaignPage' } }), secret, async (ctx) => {
    const { page, pageSize, offset } = pageParams(ctx.query);
    const { sort, dir } = sortParams(ctx.query, ['name', 'createdAt', 'updatedAt'] as const, 'createdAt');
    const search = typeof ctx.query.search === 'string' && ctx.query.search !== '' ? ctx.query.search : null;
    const found = await listCampaigns(core.reader, readFor(core.config, projectOf(ctx).id, 'request'), { offset, pageSize, status: enumQuery(ctx.query.status, CAMPAIGN_STATUSES, 'campaign status'), search, sort, dir });
    ctx.body = pageResult(found.data.map(presentCampaign), found.total, page, pageSize);
  });

  router.post('/campaigns', describe({ summary: 'Create a campaign (DRAFT)', body: 'campaign', answers: { 201: 'CampaignEnvelope' } }), secret, (ctx) => {
    const input = validate<CampaignInput>('campaign', ctx.state.body);
    ctx.status = 201;
    ctx.body = { success: true, data: presentCampaign(createCampaign(core, projectOf(ctx).id, input)) };
  });

  router.post(
    '/campaigns/preview',
    describe({
      summary: 'Render a campaign draft for a contact',
      description:
        'What its send to the contact (or to a stand-in with no data) would carry: the preview text as the hidden preheader, the same rendering, escaping and text part; untracked, with inert https://*.preview.invalid/ subscription links. Nothing is stored or sent',
      body: 'campaign-preview',
      answers: { 200: 'TemplatePreview' },
    }),
    secretRead,
    async (ctx) => {
      ctx.body = await previewCampaign(core, threads, projectOf(ctx).id, validate<CampaignPreviewInput>('campaign-preview', ctx.state.body));
    },
  );

  router.post(
    '/campaigns/audience-count',
    describe({
      summary: 'Count an audience before sending',
      description:
        'Who a send with this audience would reach now, and who it leaves out: unsubscribed contacts (unless the type is TRANSACTIONAL) and suppressed addresses. Counted on a reader thread within the request budget (422 QUERY_TIMEOUT past it)',
      body: 'campaign-audience',
      answers: { 200: 'CampaignAudienceCount' },
    }),
    secretRead,
    async (ctx) => {
      const body = validate<Pick<CampaignInput, 'audienceType' | 'segmentId' | 'audienceCondition'> & { type?: TemplateType }>('campaign-audience', ctx.state.body);
      const audience = { projectId: projectOf(ctx).id, type: body.type ?? 'MARKETING', ...audienceOf(body) };
      checkAudience(core, audience);
      ctx.body = await countAudienceParts(core, audience);
    },
  );

  router.get('/campaigns/:id', describe({ summary: 'Get a campaign', answers: { 200: 'Campaign' } }), secret, (ctx) => {
    ctx.body = presentCampaign(getCampaign(core, projectOf(ctx).id, id(ctx.params)));
  });

  router.put('/campaigns/:id', describe({ summary: 'Replace a campaign (DRAFT or SCHEDULED)', body: 'campaign', answers: { 200: 'Campaign' } }), secret, (ctx) => {
    const campaignId = id(ctx.params);
    const input = validate<CampaignInput>('campaign', ctx.state.body);
    ctx.body = presentCampaign(replaceCampaign(core, projectOf(ctx).id, campaignId, input));
  });

  router.delete('/campaigns/:id', describe({ summary: 'Delete a campaign', answers: { 204: null } }), secret, (ctx) => {
    deleteCampaign(core, usage, projectOf(ctx).id, id(ctx.params));
    ctx.status = 204;
  });

  router.post('/campaigns/:id/duplicate', describe({ summary: 'Duplicate a campaign as a DRAFT', answers: { 201: 'Campaign' } }), secret, (ctx) => {
    ctx.status = 201;
    ctx.body = presentCampaign(duplicateCampaign(core, projectOf(ctx).id, id(ctx.params)));
  });

  router.post('/campaigns/:id/send', describe({ summary: 'Send now or schedule', body: 'campaign-send', answers: { 200: 'CampaignEnvelope' } }), secret, async (ctx) => {
    const campaignId = id(ctx.params);
    const body = validate<{ scheduledFor?: unknown }>('campaign-send', ctx.state.body ?? {});
    const { campaign, message } = await sendCampaign(core, projectOf(ctx).id, campaignId, body.scheduledFor);
    ctx.body = { success: true, data: presentCampaign(campaign), message };
  });

  router.post('/campaigns/:id/cancel', describe({ summary: 'Cancel a SCHEDULED or SENDING campaign', answers: { 200: 'Campaign' } }), secret, (ctx) => {
    ctx.body = presentCampaign(cancelCampaign(core, projectOf(ctx).id, id(ctx.params)));
  });

  router.post('/campaigns/:id/test', describe({ summary: 'Send a test to one address', body: 'test-send', answers: { 200: 'TestSendResult' } }), secret, async (ctx) => {
    const campaignId = id(ctx.params);
    const { email } = validate<{ email: string }>('test-send', ctx.state.body);
    ctx.body = testSendAnswer(await testCampaign(core, threads, projectOf(ctx).id, campaignId, email));
  });

  router.get('/campaigns/:id/stats', describe({ summary: 'Counters and rates', answers: { 200: 'CampaignStats' } }), secret, (ctx) => {
    ctx.body = { success: true, data: campaignStats(getCampaign(core, projectOf(ctx).id, id(ctx.params))) };
  });

  return router;
}
