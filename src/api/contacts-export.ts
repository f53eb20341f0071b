import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { contactsExport } from '../segments/export.js';

export function exportRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get(
    '/contacts/export',
    describe({ summary: 'Every contact, or a segment’s members, as CSV (streamed)', query: ['segmentId'], answers: { 200: { type: 'text/csv' } } }),
    guards.key('secret'),
    async (ctx) => {
      const segmentId = typeof ctx.query.segmentId === 'string' && ctx.query.segmentId !== '' ? ctx.query.segmentId : null;
      const { fileName, rows } = await contactsExport(core, projectOf(ctx).id, segmentId);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
      ctx.set('Cache-Control', 'no-store');
      // pulled a batch at a time as the client reads: a slow reader holds no more than a batch
      ctx.body = Readable.from(rows);
    },
  );

  return router;
}
