import type { Middleware } from 'koa';
import type { ApiState } from './state.js';
import type { Metrics } from '../metrics/metrics.js';

/** Counts every request by its route template (set by koa-router) and final status, and times it. */
export function requestMetrics(metrics: Metrics): Middleware<ApiState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.request(ctx.method, route === undefined ? 'unmatched' : String(route), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
