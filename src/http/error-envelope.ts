import type { Middleware } from 'koa';
import { ApiError, FlatError } from '../errors.js';
import type { Logger } from '../log.js';
import type { ApiContext, ApiState } from './state.js';

function envelope(ctx: ApiContext, err: ApiError): void {
  ctx.status = err.status;
  for (const [name, value] of Object.entries(err.extra.headers ?? {})) ctx.set(name, value);
  ctx.body = {
    success: false,
    // Beside the spec's `error.message`: SDKs of the reference platform read a top-level message.
    message: err.message,
    error: {
      code: err.code,
      message: err.message,
      statusCode: err.status,
      requestId: ctx.state.requestId,
      ...(err.extra.errors ? { errors: err.extra.errors } : {}),
      ...(err.extra.details ? { details: err.extra.details } : {}),
      ...(err.extra.suggestion ? { suggestion: err.extra.suggestion } : {}),
    },
    timestamp: new Date().toISOString(),
  };
}

/** The one place errors leave: the spec's envelope (or its flat form), a 404 for unknown routes, 500 for the rest. */
export function errorEnvelope(log: Logger): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        envelope(ctx, new ApiError(404, 'NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`));
      } else if (ctx.status === 405 && ctx.body === undefined) {
        envelope(ctx, new ApiError(405, 'METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`));
      }
    } catch (err) {
      if (err instanceof FlatError) {
        ctx.status = err.status;
        ctx.body = { error: err.message };
      } else if (err instanceof ApiError) {
        envelope(ctx, err);
      } else {
        log.error('unexpected error', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, error: (err as Error)?.stack ?? String(err) });
        envelope(ctx, new ApiError(500, 'INTERNAL_SERVER_ERROR', 'An unexpected error occurred'));
      }
    }
  };
}
