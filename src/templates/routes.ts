import { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import type { Guards } from '../http/guards.js';
import { pageParams, pageResult, sortParams } from '../http/pagination.js';
import { requireFlat } from '../http/flat-required.js';
import { enumQuery } from '../http/params.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../openapi/describe.js';
import { listTemplates } from './list.js';
import { presentTemplate } from './present.js';
import { createTemplate, deleteTemplate, duplicateTemplate, getTemplate, patchTemplate, usageOfTemplate, type TemplateInput, type TemplatePatch } from './service.js';
import { TEMPLATE_TYPES } from './store.js';


export function templateRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get(
    '/templates',
    describe({ summary: 'List templates', query: ['page', 'pageSize', 'type', 'search', 'sort', 'dir'], answers: { 200: 'TemplatePage' } }),
    secret,
    (ctx) => {
      const { page, pageSize, offset } = pageParams(ctx.query);
      const { sort, dir } = sortParams(ctx.query, ['name', 'createdAt', 'updatedAt'] as const, 'createdAt');
      const search = typeof ctx.query.search === 'string' && ctx.query.search !== '' ? ctx.query.search : null;
      const found = listTemplates(app.db, projectOf(ctx).id, { offset, pageSize, type: enumQuery(ctx.query.type, TEMPLATE_TYPES, 'template type'), search, sort, dir });
      ctx.body = pageResult(found.data.map(presentTemplate), found.total, page, pageSize);
    },
  );

  router.post('/templates', describe({ summary: 'Create a template', body: 'template-create', answers: { 201: 'Template' } }), secret, (ctx) => {
    requireFlat(ctx.state.body, ['name', 'subject', 'body', 'from']);
    const input = validate<TemplateInput>('template-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = presentTemplate(createTemplate(app, projectOf(ctx).id, input));
  });

  router.get('/templates/:id', describe({ summary: 'One template', answers: { 200: 'Template' } }), secret, (ctx) => {
    ctx.body = presentTemplate(getTemplate(app, projectOf(ctx).id, ctx.params.id!));
  });

  router.patch('/templates/:id', describe({ summary: 'Change a template', body: 'template-patch', answers: { 200: 'Template' } }), secret, (ctx) => {
    const patch = validate<TemplatePatch>('template-patch', ctx.state.body ?? {});
    ctx.body = presentTemplate(patchTemplate(app, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/templates/:id', describe({ summary: 'Delete a template', answers: { 204: null } }), secret, (ctx) => {
    deleteTemplate(app, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/templates/:id/duplicate', describe({ summary: 'Copy a template', answers: { 201: 'CreatedId' } }), secret, (ctx) => {
    ctx.status = 201;
    ctx.body = { id: duplicateTemplate(app, projectOf(ctx).id, ctx.params.id!).id };
  });

  router.get('/templates/:id/usage', describe({ summary: 'Where a template is used', answers: { 200: 'TemplateUsage' } }), secret, (ctx) => {
    ctx.body = usageOfTemplate(app, projectOf(ctx).id, ctx.params.id!);
  });

  return router;
}
