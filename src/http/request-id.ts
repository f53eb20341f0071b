import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { ApiState } from './state.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every request gets a correlation id (the caller's X-Request-Id when it is sane), echoed in the answer. */
export const requestId: Middleware<ApiState> = async (ctx, next) => {
  const given = ctx.get('X-Request-Id');
  ctx.state.requestId = SAFE_ID.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
};
