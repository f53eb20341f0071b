import Koa from 'koa';
import type { Router } from '@koa/router';
import type { Ctx } from '../context.js';
import type { Module } from '../module.js';
import { errorEnvelope } from './error-envelope.js';
import { createGuards } from './guards.js';
import { requestId } from './request-id.js';
import type { ApiState } from './state.js';

/** The routes of every module; `extra` routers are mounted after them (the test hooks). */
export function createHttpApp(app: Ctx, modules: Module[], extra: Router<ApiState>[] = []): Koa<ApiState> {
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
  const routers = modules.flatMap((m) => (m.routes ? [m.routes(app, guards)] : []));
  for (const router of [...routers, ...extra]) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
