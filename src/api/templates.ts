import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { pageParams, pageResult, sortParams } from '../http/pagination.js';
import { requireFlat } from '../http/flat-required.js';
import { enumQuery } from '../http/params.js';
import { testSendAnswer } from '../compose/test-send.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { testTemplate } from '../send/test-template.js';
import { listTemplates } from '../templates/list-store.js';
import { presentTemplate } from '../templates/present.js';
import { previewTemplate, type PreviewInput } from '../templates/preview.js';
import { createTemplate, deleteTemplate, duplicateTemplate, getTemplate, patchTemplate, usageOfTemplate, type TemplateInput, type TemplatePatch } from '../templates/service.js';
import { TEMPLATE_TYPES } from '../templates/store.js';
import type { Pools } from '../threads/pool.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import type { Usages } from '../usage/usages.js';
import { readFor } from '../store/reader.js';

export function templateRoutes(core: Core, { threads, usage }: { threads: Pools<ComposeOps>; usage: Usages }, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');
  // a POST that stores nothing: a disabled project may preview
  const secretRead = guards.key('secret', { access: 'read' });

  router.get(
    '/templates',
    describe({ summary: 'List templates', query: ['page', 'pageSize', 'type', 'search', 'sort', 'dir'], answers: { 200: 'TemplatePage' } }),
    secret,
    async (ctx) => {
      const { page, pageSize, offset } = pageParams(ctx.query);
      const { sort, dir } = sortParams(ctx.query, ['name', 'createdAt', 'updatedAt'] as const, 'createdAt');
      const search = typeof ctx.query.search === 'string' && ctx.query.search !== '' ? ctx.query.search : null;
      const found = await listTemplates(core.reader, readFor(core.config, projectOf(ctx).id, 'request'), { offset, pageSize, type: enumQuery(ctx.query.type, TEMPLATE_TYPES, 'template type'), search, sort, dir });
      ctx.body = pageResult(found.data.map(presentTemplate), found.total, page, pageSize);
    },
  );

  router.post('/templates', describe({ summary: 'Create a template', body: 'template-create', answers: { 201: 'Template' } }), secret, (ctx) => {
    requireFlat(ctx.state.body, ['name', 'subject', 'body', 'from']);
    const input = validate<TemplateInput>('template-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = presentTemplate(createTemplate(core, projectOf(ctx).id, input));
  });

  router.post(
    '/templates/preview',
    describe({
      summary: 'Render a subject and body for a contact',
      description:
        'What a send to the contact (or to a stand-in with no data) would carry: the same rendering, escaping and text part; untracked, with inert https://*.preview.invalid/ subscription links. Nothing is stored or sent',
      body: 'template-preview',
      answers: { 200: 'TemplatePreview' },
    }),
    secretRead,
    async (ctx) => {
      ctx.body = await previewTemplate(core.db, threads, projectOf(ctx).id, validate<PreviewInput>('template-preview', ctx.state.body));
    },
  );

  router.get('/templates/:id', describe({ summary: 'One template', answers: { 200: 'Template' } }), secret, (ctx) => {
    ctx.body = presentTemplate(getTemplate(core, projectOf(ctx).id, ctx.params.id!));
  });

  router.patch('/templates/:id', describe({ summary: 'Change a template', body: 'template-patch', answers: { 200: 'Template' } }), secret, (ctx) => {
    const patch = validate<TemplatePatch>('template-patch', ctx.state.body ?? {});
    ctx.body = presentTemplate(patchTemplate(core, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/templates/:id', describe({ summary: 'Delete a template', answers: { 204: null } }), secret, (ctx) => {
    deleteTemplate(core, usage, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/templates/:id/duplicate', describe({ summary: 'Copy a template', answers: { 201: 'CreatedId' } }), secret, (ctx) => {
    ctx.status = 201;
    ctx.body = { id: duplicateTemplate(core, projectOf(ctx).id, ctx.params.id!).id };
  });

  router.post(
    '/templates/:id/test',
    describe({ summary: 'Send a test of the saved template to one address', description: 'Subject prefixed "[TEST] ", untracked, not counted', body: 'test-send', answers: { 200: 'TestSendResult' } }),
    secret,
    async (ctx) => {
      const { email } = validate<{ email: string }>('test-send', ctx.state.body);
      ctx.body = testSendAnswer(await testTemplate(core, threads, projectOf(ctx).id, ctx.params.id!, email));
    },
  );

  router.get('/templates/:id/usage', describe({ summary: 'Where a template is used', answers: { 200: 'TemplateUsage' } }), secret, async (ctx) => {
    ctx.body = await usageOfTemplate(core, usage, projectOf(ctx).id, ctx.params.id!);
  });

  return router;
}
