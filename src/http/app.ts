import Koa from 'koa';
import type { Router } from '@koa/router';
import { loadConsole } from '../console/files.js';
import { serveConsole } from '../console/serve.js';
import type { Ctx } from '../context.js';
import { requestMetrics } from '../metrics/http.js';
import type { Module } from '../module.js';
import { errorEnvelope } from './error-envelope.js';
import { createGuards } from './guards.js';
import { requestId } from './request-id.js';
import type { ApiState } from './state.js';
import { systemRoutes } from './system-routes.js';

/** The console's files, the system routes, then the routes of every module; `extra` routers are mounted after them (the test hooks). */
export function createHttpApp(app: Ctx, modules: Module[], extra: Router<ApiState>[] = []): Koa<ApiState> {
  const koa = new Koa<ApiState>({ proxy: false });
  koa.silent = true; // errors are logged by the envelope middleware, once
  const guards = createGuards(app);
  koa.use(requestMetrics(app.metrics));
  koa.use(requestId);
  koa.use(errorEnvelope(app.log));
  koa.use(serveConsole(loadConsole()));
  const routers: Router<ApiState>[] = [];
  routers.push(systemRoutes(app, () => routers), ...modules.flatMap((m) => (m.routes ? [m.routes(app, guards)] : [])), ...extra);
  for (const router of routers) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
