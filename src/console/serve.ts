// The console on the API's own listener: `/` redirects to `/app/`, `/app/...` answers its files,
// and any other path under /app/ answers index.html (the app routes in the browser). Every answer
// carries a strict Content-Security-Policy: only our own scripts, nothing inline, no eval.
import type { Middleware } from 'koa';
import { ApiError } from '../errors.js';
import type { ApiState } from '../http/state.js';
import type { ConsoleFile } from './files.js';

/**
 * Scripts: our own files only, nothing inline, no eval. Styles and images are wider for one reason,
 * the template preview: it is a `srcdoc` iframe sandboxed without `allow-scripts` or
 * `allow-same-origin` (no script runs in it, and its origin is opaque, so it cannot reach ours), and
 * a srcdoc document lives under its parent's policy. Email HTML is styled inline (`style`
 * attributes, `<style>` blocks) and shows images from anywhere, so `style-src` allows inline
 * styles and `img-src` https: and data: images. The console's own code uses neither.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export function serveConsole(files: Map<string, ConsoleFile> | null): Middleware<ApiState> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/' || ctx.path === '/app') {
      ctx.redirect('/app/');
      return;
    }
    if (!ctx.path.startsWith('/app/')) return next();
    if (!files) throw new ApiError(404, 'NOT_FOUND', 'The console is not built: run npm run build');
    const path = ctx.path.slice('/app/'.length);
    // a missing asset is a 404, never the page: a script tag must not receive HTML
    const file = files.get(path) ?? (path.startsWith('assets/') ? undefined : files.get('index.html'));
    if (!file) throw new ApiError(404, 'NOT_FOUND', `No console file ${ctx.path}`);
    ctx.set(SECURITY_HEADERS);
    ctx.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-store');
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = file.type;
    if (file.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = file.gzip;
    } else ctx.body = file.body;
  };
}
