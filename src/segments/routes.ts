import { Router } from '@koa/router';
import { presentContact } from '../contacts/present.js';
import type { Ctx } from '../context.js';
import { FlatError } from '../errors.js';
import type { Guards } from '../http/guards.js';
import { pageParams, pageResult } from '../http/pagination.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { presentSegment } from './present.js';
import {
  addMembers,
  computeSegment,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  patchSegment,
  refreshSegment,
  removeMembers,
  segmentContacts,
  type MembersInput,
  type SegmentInput,
  type SegmentPatch,
} from './service.js';

/** The spec's flat 400 for an object body (or none) without a name, or a DYNAMIC one without a condition. */
function assertRequiredPresent(raw: unknown): void {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) return;
  const body = (raw ?? {}) as Record<string, unknown>;
  if (!('name' in body)) throw new FlatError(400, 'name is required');
  const dynamic = body.type === undefined || body.type === 'DYNAMIC';
  if (dynamic && (body.condition === undefined || body.condition === null)) throw new FlatError(400, 'condition is required for a DYNAMIC segment');
}

export function segmentRoutes(app: Ctx, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  router.get('/segments', secret, (ctx) => {
    ctx.body = { data: listSegments(app, projectOf(ctx).id).map(presentSegment) };
  });

  router.post('/segments', secret, (ctx) => {
    assertRequiredPresent(ctx.state.body);
    const input = validate<SegmentInput>('segment-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = presentSegment(createSegment(app, projectOf(ctx).id, input));
  });

  router.get('/segments/:id', secret, (ctx) => {
    ctx.body = presentSegment(getSegment(app, projectOf(ctx).id, ctx.params.id!));
  });

  router.patch('/segments/:id', secret, (ctx) => {
    const patch = validate<SegmentPatch>('segment-patch', ctx.state.body ?? {});
    ctx.body = presentSegment(patchSegment(app, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/segments/:id', secret, (ctx) => {
    deleteSegment(app, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.get('/segments/:id/contacts', secret, (ctx) => {
    const { page, pageSize, offset } = pageParams(ctx.query);
    const found = segmentContacts(app, projectOf(ctx).id, ctx.params.id!, { offset, limit: pageSize });
    ctx.body = pageResult(found.contacts.map(presentContact), found.total, page, pageSize);
  });

  router.post('/segments/:id/members', secret, (ctx) => {
    const input = validate<MembersInput>('segment-members', ctx.state.body);
    ctx.body = addMembers(app, projectOf(ctx).id, ctx.params.id!, input);
  });

  router.delete('/segments/:id/members', secret, (ctx) => {
    const { emails } = validate<MembersInput>('segment-members', ctx.state.body);
    ctx.body = removeMembers(app, projectOf(ctx).id, ctx.params.id!, emails);
  });

  router.post('/segments/:id/compute', secret, async (ctx) => {
    ctx.body = await computeSegment(app, projectOf(ctx).id, ctx.params.id!);
  });

  router.post('/segments/:id/refresh', secret, (ctx) => {
    ctx.body = refreshSegment(app, projectOf(ctx).id, ctx.params.id!);
  });

  return router;
}
