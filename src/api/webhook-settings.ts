import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { notFound } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { rotatedWebhookSettings, webhookSettings } from '../webhooks/secret.js';

/** The project's webhook signing secret, where whoever builds a WEBHOOK step looks for it: secret key only. */
export function webhookSettingsRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  // settings are ADMIN's: a MEMBER who builds workflows asks one for the secret
  const secret = guards.key('secret', { role: 'ADMIN' });

  router.get(
    '/settings/webhooks',
    describe({
      summary: 'Webhook signing settings',
      description: 'The secret that signs every WEBHOOK request of the project (made if the project has none yet), and how the signature is written',
      answers: { 200: 'WebhookSettings' },
    }),
    secret,
    (ctx) => {
      ctx.body = webhookSettings(core.db, projectOf(ctx).id);
    },
  );

  router.post(
    '/settings/webhooks/rotate-secret',
    describe({ summary: 'New webhook signing secret', description: 'The old secret stops signing at once; requests already signed keep their signature', answers: { 200: 'WebhookSettings' } }),
    secret,
    (ctx) => {
      const settings = rotatedWebhookSettings(core.db, projectOf(ctx).id);
      if (!settings) throw notFound('Project');
      ctx.body = settings;
    },
  );

  return router;
}
