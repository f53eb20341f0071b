import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { cursorLimit, decodeCursor } from '../http/pagination.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { badRequest } from '../errors.js';
import { listSuppressions, presentRemoval, SUPPRESSION_REASONS, suppressionRemovals, unsuppress } from '../suppressions/service.js';
import type { SuppressionReason } from '../suppressions/store.js';

function reasonParam(raw: unknown): SuppressionReason | null {
  if (raw === undefined || raw === '') return null;
  if (SUPPRESSION_REASONS.includes(raw as SuppressionReason)) return raw as SuppressionReason;
  throw badRequest('"reason" must be bounce or complaint', 'Unsubscribed contacts are not suppressions: list them with GET /contacts?subscribed=false');
}

export function suppressionRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get(
    '/suppressions',
    describe({ summary: 'Suppressed addresses, newest first', query: ['limit', 'cursor', 'search', 'reason'], answers: { 200: 'SuppressionPage' } }),
    guards.key('secret'),
    async (ctx) => {
      const search = typeof ctx.query.search === 'string' && ctx.query.search !== '' ? ctx.query.search : null;
      ctx.body = await listSuppressions(core, projectOf(ctx).id, {
        limit: cursorLimit(ctx.query.limit),
        cursor: decodeCursor(ctx.query.cursor),
        search,
        reason: reasonParam(ctx.query.reason),
      });
    },
  );

  router.get(
    '/suppressions/removals',
    describe({ summary: 'Removed suppressions with who removed each, when and why', query: ['limit', 'cursor'], answers: { 200: 'SuppressionRemovalPage' } }),
    guards.key('secret'),
    (ctx) => {
      ctx.body = suppressionRemovals(core.db, projectOf(ctx).id, decodeCursor(ctx.query.cursor), cursorLimit(ctx.query.limit));
    },
  );

  router.delete(
    '/suppressions/:email',
    describe({ summary: 'Remove a suppression, saying why (the contact stays unsubscribed)', body: 'suppression-remove', answers: { 200: 'SuppressionRemoval' } }),
    guards.key('secret', { role: 'ADMIN' }),
    (ctx) => {
      const { reason } = validate<{ reason: string }>('suppression-remove', ctx.state.body);
      const who = ctx.state.user?.email ?? 'secret key';
      ctx.body = presentRemoval(unsuppress(core, projectOf(ctx).id, ctx.params.email!, who, reason.trim()));
    },
  );

  return router;
}
