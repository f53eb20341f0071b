import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import { describe } from '../http/openapi/describe.js';
import { openApiDocument } from '../http/openapi/document.js';
import { postmillVersion } from '../runtime/version.js';
import { isAdminRequest } from '../http/admin.js';
import { invalidKey } from './guards/key-auth.js';
import type { ApiState } from '../http/state.js';

/** /health, /openapi.json (of `routers`, read when first asked: the list is complete by then) and /metrics. */
export function systemRoutes(core: Core, metrics: Metrics, routers: () => Router<ApiState>[]): Router<ApiState> {
  const router = new Router<ApiState>();
  let document: string | null = null;

  router.get(
    '/health',
    describe({ summary: 'Liveness: answers while the daemon serves', description: 'No key needed; with the adminToken the answer also names the version.', answers: { 200: 'Health' } }),
    (ctx) => {
      // The version tells an attacker which flaws to try: only the operator gets it.
      ctx.body = isAdminRequest(core.config.adminToken, ctx.get('Authorization')) ? { status: 'ok', version: postmillVersion() } : { status: 'ok' };
    },
  );

  router.get('/openapi.json', describe({ summary: 'This OpenAPI 3.1 document', answers: { 200: { type: 'application/json' } } }), (ctx) => {
    document ??= JSON.stringify(openApiDocument(routers(), core.config.publicUrl));
    ctx.type = 'application/json';
    ctx.body = document;
  });

  router.get(
    '/metrics',
    describe({
      summary: 'Prometheus metrics: requests, job queue, deliveries, inbound mail, reactor lag, store size',
      description: 'Needs the adminToken; off (404) while none is configured.',
      auth: 'admin',
      answers: { 200: { type: 'text/plain' } },
    }),
    async (ctx) => {
      if (!core.config.adminToken) throw new ApiError(404, 'NOT_FOUND', 'GET /metrics is off: set adminToken to turn it on');
      if (!isAdminRequest(core.config.adminToken, ctx.get('Authorization'))) throw invalidKey('GET /metrics needs the admin token');
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.scrape();
    },
  );

  return router;
}
