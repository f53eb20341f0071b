import { Router } from '@koa/router';
import { iso } from '../clock.js';
import type { Core } from '../core.js';
import { foundOr404, notFound } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiContext, type ApiState } from '../http/state.js';
import { OPERATOR, type KeyMaker } from '../projects/keys.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { rotateKeys, setProjectTracking } from '../projects/service.js';
import { findPublicKey, getProject } from '../projects/store.js';
import { setEd25519Signing } from '../domains/rotation.js';

/**
 * Whose power new keys carry: the signed-in user's role, or the calling key's own role and maker
 * (a key cannot make a stronger one); the admin token is the operator's. Nothing lets a role obtain
 * a credential stronger than its own.
 */
function keyMaker(ctx: ApiContext): KeyMaker {
  if (!ctx.state.project) return OPERATOR;
  return { role: ctx.state.role!, userId: ctx.state.user?.id ?? ctx.state.keyMadeBy ?? null };
}

/**
 * `/users/@me/...`: the admin token may act on any project, a project's secret key (or an ADMIN of
 * the console) on its own project only. `/settings/keys`, `/settings/tracking` and `/settings/dkim`:
 * the project's own keys, tracking and signing, an ADMIN's business.
 */
export function projectRoutes(core: Core, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const admin = guards.key('secret', { role: 'ADMIN' });

  router.post(
    '/users/@me/projects/:id/regenerate-keys',
    describe({
      summary: 'New keys',
      description: "The old keys stop at once. The new secret key acts with the caller's role (a key's own role and maker; the admin token's as OWNER) and ends when the user who made it loses that role",
      answers: { 200: 'ProjectKeys' },
    }),
    guards.key('secret', { role: 'ADMIN', adminToken: true }),
    async (ctx, next) => {
      // without a project the admin token passed
      if (ctx.state.project && projectOf(ctx).id !== ctx.params.id) throw notFound('Project');
      const keys = rotateKeys(core.db, core.clock, ctx.params.id!, keyMaker(ctx));
      if (!keys) throw notFound('Project');
      ctx.body = keys;
      await next();
    },
  );

  router.get(
    '/settings/keys',
    describe({ summary: 'The public key', description: 'The public key and when the keys were made; the secret key is shown only when it is made', answers: { 200: 'KeySettings' } }),
    admin,
    (ctx) => {
      const keys = foundOr404(findPublicKey(core.db, projectOf(ctx).id), 'Project keys');
      ctx.body = { publicKey: keys.publicKey, createdAt: iso(keys.createdAt) };
    },
  );

  router.get('/settings/tracking', describe({ summary: 'Tracking settings', answers: { 200: 'TrackingSettings' } }), admin, (ctx) => {
    ctx.body = { trackTransactional: foundOr404(getProject(core.db, projectOf(ctx).id), 'Project').trackTransactional };
  });

  router.patch(
    '/settings/tracking',
    describe({ summary: 'Change tracking settings', description: 'Also `postmill project tracking ID on|off`; the next send follows it', body: 'tracking-settings', answers: { 200: 'TrackingSettings' } }),
    admin,
    (ctx) => {
      const { trackTransactional } = validate<{ trackTransactional: boolean }>('tracking-settings', ctx.state.body);
      const project = foundOr404(setProjectTracking(core.db, core.clock, projectOf(ctx).id, trackTransactional), 'Project');
      ctx.body = { trackTransactional: project.trackTransactional };
    },
  );

  router.get('/settings/dkim', describe({ summary: 'DKIM signing settings', answers: { 200: 'DkimSettings' } }), admin, (ctx) => {
    ctx.body = { dkimEd25519: foundOr404(getProject(core.db, projectOf(ctx).id), 'Project').dkimEd25519 };
  });

  router.patch(
    '/settings/dkim',
    describe({
      summary: 'Change DKIM signing settings',
      description: 'On: each domain gets an Ed25519 key (pending) whose record is shown with the domain; it signs beside RSA once the record is seen in DNS. Off: Ed25519 keys stop signing and stay published for dkim.rotationOverlapDays',
      body: 'dkim-settings',
      answers: { 200: 'DkimSettings' },
    }),
    admin,
    (ctx) => {
      const { dkimEd25519 } = validate<{ dkimEd25519: boolean }>('dkim-settings', ctx.state.body);
      if (!setEd25519Signing(core, projectOf(ctx).id, dkimEd25519)) throw notFound('Project');
      ctx.body = { dkimEd25519 };
    },
  );

  return router;
}
