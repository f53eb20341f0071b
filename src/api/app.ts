import Koa from 'koa';
import type { Router } from '@koa/router';
import { loadConsole } from '../console/files.js';
import { serveConsole } from '../console/serve.js';
import type { Core } from '../core.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Admission } from '../limits/admission.js';
import { requestMetrics } from '../http/request-metrics.js';
import { errorEnvelope } from '../http/error-envelope.js';
import { createGuards, type Guards } from './guards/guards.js';
import { requestId } from '../http/request-id.js';
import type { ApiState } from '../http/state.js';
import { systemRoutes } from './system.js';

/** The console's files, the system routes, then the routers of every module; `extra` routers are mounted after them (the test hooks). */
export function createHttpApp(core: Core, parts: { metrics: Metrics; admission: Admission }, routes: ((guards: Guards) => Router<ApiState>)[], extra: Router<ApiState>[] = []): Koa<ApiState> {
  const koa = new Koa<ApiState>({ proxy: false });
  koa.silent = true; // errors are logged by the envelope middleware, once
  const guards = createGuards(core, parts.admission);
  koa.use(requestMetrics(parts.metrics));
  koa.use(requestId);
  koa.use(errorEnvelope(core.log));
  koa.use(serveConsole(loadConsole()));
  const routers: Router<ApiState>[] = [];
  routers.push(systemRoutes(core, parts.metrics, () => routers), ...routes.map((route) => route(guards)), ...extra);
  for (const router of routers) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
