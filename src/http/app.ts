import Koa from 'koa';
import type { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import { contactRoutes } from '../contacts/routes.js';
import { domainRoutes } from '../domains/routes.js';
import { eventRoutes, trackRoutes } from '../events/routes.js';
import { projectRoutes } from '../projects/routes.js';
import { sendRoutes } from '../send/routes.js';
import { templateRoutes } from '../templates/routes.js';
import { trackingRoutes } from '../tracking/routes.js';
import { errorEnvelope } from './error-envelope.js';
import { createGuards, type Guards } from './guards.js';
import { requestId } from './request-id.js';
import type { ApiState } from './state.js';

/** Every resource's routes; a new resource adds its builder here. */
const RESOURCES: ((app: Ctx, guards: Guards) => Router<ApiState>)[] = [
  contactRoutes,
  projectRoutes,
  domainRoutes,
  templateRoutes,
  sendRoutes,
  trackRoutes,
  eventRoutes,
  trackingRoutes,
];

/** `extra` routers are mounted after the resources (the test hooks). */
export function createHttpApp(app: Ctx, extra: Router<ApiState>[] = []): Koa<ApiState> {
  const koa = new Koa<ApiState>({ proxy: false });
  koa.silent = true; // errors are logged by the envelope middleware, once
  const guards = createGuards(app);
  koa.use(requestId);
  koa.use(errorEnvelope(app.log));
  koa.use(async (ctx, next) => {
    if (ctx.path === '/health' && ctx.method === 'GET') {
      ctx.body = { status: 'ok' };
      return;
    }
    await next();
  });
  for (const router of [...RESOURCES.map((build) => build(app, guards)), ...extra]) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
