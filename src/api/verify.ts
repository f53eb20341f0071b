import { Router } from '@koa/router';
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { createVerifier } from '../verify/service.js';

/** POST /v1/verify: secret key; answers 200 with a verdict for any string, 422 only for a body without one. */
export function verifyRoutes(core: Core, dns: Dns, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const verifier = createVerifier(dns, core.clock);
  router.post('/v1/verify', describe({ summary: 'Verify an email address', body: 'verify', answers: { 200: 'VerifyResult' } }), guards.key('secret', { access: 'read' }), async (ctx) => {
    const { email } = validate<{ email: string }>('verify', ctx.state.body);
    ctx.body = { success: true, data: await verifier.verify(projectOf(ctx).id, email) };
  });
  return router;
}
