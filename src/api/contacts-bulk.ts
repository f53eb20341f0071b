import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { presentContactJob } from '../contacts/jobs/present.js';
import { getContactJob } from '../contacts/jobs/service.js';
import { BULK_JOB_TYPES, startBulk, type BulkOperation } from '../contacts/bulk/service.js';

const OPERATIONS: BulkOperation[] = ['subscribe', 'unsubscribe', 'delete'];

export function bulkRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');

  for (const operation of OPERATIONS) {
    router.post(`/contacts/bulk-${operation}`, describe({ summary: `Bulk ${operation} up to 1000 contacts (queued)`, body: 'contacts-bulk', answers: { 202: 'ContactJobQueued' } }), secret, (ctx) => {
      const { contactIds } = validate<{ contactIds: string[] }>('contacts-bulk', ctx.state.body);
      const job = startBulk(core, projectOf(ctx).id, operation, contactIds);
      ctx.status = 202;
      ctx.body = { jobId: job.id, message: `Bulk ${operation} of ${job.input.contactIds.length} contacts queued; poll GET /contacts/bulk/${job.id}` };
    });
  }

  router.get('/contacts/bulk/:jobId', describe({ summary: 'Poll a bulk job', answers: { 200: 'BulkJob' } }), secret, (ctx) => {
    ctx.body = presentContactJob(getContactJob(core, projectOf(ctx).id, ctx.params.jobId!, Object.values(BULK_JOB_TYPES)));
  });

  return router;
}
