import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { presentContactJob } from '../contacts/jobs/present.js';
import { getContactJob } from '../contacts/jobs/service.js';
import { startImport } from '../contacts/import/service.js';
import { CSV_UPLOAD_DOC, csvUpload, uploadedFile } from '../contacts/import/upload.js';
import { describe } from '../http/openapi/describe.js';

export function importRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();

  router.post('/contacts/import', describe({ summary: 'Import contacts from a CSV file (queued)', body: CSV_UPLOAD_DOC, answers: { 202: 'ContactJobQueued' } }), guards.key('secret', { json: false }), csvUpload(core.config.dataDir), async (ctx) => {
    const job = await startImport(core, projectOf(ctx).id, uploadedFile(ctx));
    ctx.status = 202;
    ctx.body = { jobId: job.id, message: `Import queued; poll GET /contacts/import/${job.id} for its progress` };
  });

  router.get('/contacts/import/:jobId', describe({ summary: 'Poll an import job', answers: { 200: 'ImportJob' } }), guards.key('secret'), (ctx) => {
    ctx.body = presentContactJob(getContactJob(core, projectOf(ctx).id, ctx.params.jobId!, ['import']));
  });

  return router;
}
