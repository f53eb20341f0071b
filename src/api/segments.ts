import { Router } from '@koa/router';
import { presentContact } from '../contacts/present.js';
import type { Core } from '../core.js';
import { FlatError } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { requireFlat } from '../http/flat-required.js';
import { pageParams, pageResult } from '../http/pagination.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { validate } from '../http/validate.js';
import { presentSegment } from '../segments/present.js';
import { previewSegment, PREVIEW_SAMPLE, type PreviewInput } from '../segments/preview.js';
import {
  addMembers,
  computeSegment,
  createCountedSegment,
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
} from '../segments/service.js';
import type { Usages } from '../usage/usages.js';

/** The spec's flat 400 for an object body (or none) without a name, or a DYNAMIC one without a condition. */
function assertRequiredPresent(raw: unknown): void {
  requireFlat(raw, ['name']);
  if (raw === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const body = raw as Record<string, unknown>;
  const dynamic = body.type === undefined || body.type === 'DYNAMIC';
  if (dynamic && (body.condition === undefined || body.condition === null)) throw new FlatError(400, 'condition is required for a DYNAMIC segment');
}

/** How POST /segments says whether memberCount was counted (the body stays exactly a Segment, as the spec has it). */
export const MEMBER_COUNT_HEADER = 'X-Postmill-Member-Count';

export function segmentRoutes(core: Core, usage: Usages, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');
  // a POST that stores nothing: a disabled project may preview
  const secretRead = guards.key('secret', { access: 'read' });

  router.get('/segments', describe({ summary: 'List segments', answers: { 200: 'SegmentList' } }), secret, (ctx) => {
    ctx.body = { data: listSegments(core, projectOf(ctx).id).map(presentSegment) };
  });

  router.post(
    '/segments',
    describe({
      summary: 'Create a segment',
      description: `Its members are counted before the answer, within reads.requestBudgetMs: the header ${MEMBER_COUNT_HEADER} says "counted" (memberCount is right) or "queued" (the count ran past the budget; memberCount is 0 until the queued count job has run)`,
      body: 'segment-create',
      answers: { 201: 'Segment' },
    }),
    secret,
    async (ctx) => {
      assertRequiredPresent(ctx.state.body);
      const input = validate<SegmentInput>('segment-create', ctx.state.body);
      const { segment, counted } = await createCountedSegment(core, projectOf(ctx).id, input);
      ctx.status = 201;
      ctx.set(MEMBER_COUNT_HEADER, counted ? 'counted' : 'queued');
      ctx.body = presentSegment(segment);
    },
  );

  router.post(
    '/segments/preview',
    describe({
      summary: 'Count and sample the members of a condition not saved',
      description: `The exact count and the ${PREVIEW_SAMPLE} newest matching contacts, as a dynamic segment with this condition would have them; read on reader threads within reads.requestBudgetMs (422 QUERY_TIMEOUT past it). Nothing is stored`,
      body: 'segment-preview',
      answers: { 200: 'SegmentPreview' },
    }),
    secretRead,
    async (ctx) => {
      const input = validate<PreviewInput>('segment-preview', ctx.state.body);
      const { count, sample } = await previewSegment(core, projectOf(ctx).id, input);
      ctx.body = { count, sample: sample.map(presentContact) };
    },
  );

  router.get('/segments/:id', describe({ summary: 'A segment with its cached member count', answers: { 200: 'Segment' } }), secret, (ctx) => {
    ctx.body = presentSegment(getSegment(core, projectOf(ctx).id, ctx.params.id!));
  });

  router.patch('/segments/:id', describe({ summary: 'Change a segment', body: 'segment-patch', answers: { 200: 'Segment' } }), secret, (ctx) => {
    const patch = validate<SegmentPatch>('segment-patch', ctx.state.body ?? {});
    ctx.body = presentSegment(patchSegment(core, usage, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/segments/:id', describe({ summary: 'Delete a segment nothing uses', answers: { 204: null } }), secret, (ctx) => {
    deleteSegment(core, usage, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.get('/segments/:id/contacts', describe({ summary: 'A page of members (live for dynamic segments)', query: ['page', 'pageSize'], answers: { 200: 'SegmentContacts' } }), secret, async (ctx) => {
    const { page, pageSize, offset } = pageParams(ctx.query);
    const found = await segmentContacts(core, projectOf(ctx).id, ctx.params.id!, { offset, limit: pageSize });
    ctx.body = pageResult(found.contacts.map(presentContact), found.total, page, pageSize);
  });

  router.post('/segments/:id/members', describe({ summary: 'Add members to a static segment', body: 'segment-members', answers: { 200: 'SegmentMembersAdded' } }), secret, (ctx) => {
    const input = validate<MembersInput>('segment-members', ctx.state.body);
    ctx.body = addMembers(core, projectOf(ctx).id, ctx.params.id!, input);
  });

  router.delete('/segments/:id/members', describe({ summary: 'Remove members from a static segment', body: 'segment-members', answers: { 200: 'SegmentMembersRemoved' } }), secret, (ctx) => {
    const { emails } = validate<MembersInput>('segment-members', ctx.state.body);
    ctx.body = removeMembers(core, projectOf(ctx).id, ctx.params.id!, emails);
  });

  router.post('/segments/:id/compute', describe({ summary: 'Record the membership of a tracked segment now (entry and exit events)', answers: { 200: 'SegmentComputed' } }), secret, async (ctx) => {
    ctx.body = await computeSegment(core, projectOf(ctx).id, ctx.params.id!);
  });

  router.post('/segments/:id/refresh', describe({ summary: 'Count the members now', answers: { 200: 'SegmentCount' } }), secret, async (ctx) => {
    ctx.body = await refreshSegment(core, projectOf(ctx).id, ctx.params.id!);
  });

  return router;
}
