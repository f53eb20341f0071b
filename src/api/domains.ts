import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { notFound } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { presentDomain } from '../domains/present.js';
import { deleteDomain, markVerifiedWithoutDns, registerDomain, verifyDomain } from '../domains/service.js';
import { findDomainById, listProjectDomains, type Domain } from '../domains/store.js';
import { readSenderHealth } from '../domains/health.js';
import { warmupState } from '../outbound/warmup.js';
import type { Dns } from '../dns/resolver.js';

export function domainRoutes(core: Core, dns: Dns, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  // Sender domains are an ADMIN's business (a MEMBER sends from them, but does not add or remove them).
  const secret = guards.key('secret', { role: 'ADMIN' });
  // A GET, but the check stores its outcome (status, record flags): a write for a disabled project.
  const secretWrite = guards.key('secret', { access: 'write', role: 'ADMIN' });
  // what the domain's mail has met: its warm-up today and its bounce and complaint rates
  const present = (d: Domain) => {
    const now = core.clock.now();
    return {
      ...presentDomain(d, core.config.hostname),
      warmup: warmupState(core.db, core.config.delivery.warmup, d.projectId, d.domain, now),
      health: readSenderHealth(core.db, d.projectId, d.domain, now),
    };
  };

  router.post('/domains', describe({ summary: 'Register a sender domain', body: 'domain-create', answers: { 201: 'Domain' } }), secret, async (ctx) => {
    const { domain } = validate<{ domain: string }>('domain-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = present(await registerDomain(core, projectOf(ctx).id, domain));
  });

  const list = (projectId: string) => ({ data: listProjectDomains(core.db, projectId).map(present) });

  router.get('/domains', describe({ summary: "The project's sender domains (as /domains/project/{projectId})", answers: { 200: 'DomainList' } }), secret, (ctx) => {
    ctx.body = list(projectOf(ctx).id);
  });

  router.get('/domains/project/:projectId', describe({ summary: 'Sender domains', answers: { 200: 'DomainList' } }), secret, (ctx) => {
    const project = projectOf(ctx);
    if (ctx.params.projectId !== project.id) throw notFound('Project');
    ctx.body = list(project.id);
  });

  router.get('/domains/:id', describe({ summary: 'A sender domain: records, warm-up and sender health', answers: { 200: 'Domain' } }), secret, (ctx) => {
    const domain = findDomainById(core.db, projectOf(ctx).id, ctx.params.id!);
    if (!domain) throw notFound('Domain');
    ctx.body = present(domain);
  });

  router.get('/domains/:id/verify', describe({ summary: 'Check the DNS records now', answers: { 200: 'Domain' } }), secretWrite, async (ctx) => {
    ctx.body = present(await verifyDomain(core, dns, projectOf(ctx).id, ctx.params.id!));
  });

  router.post(
    '/domains/:id/mark-verified',
    describe({ summary: 'Capture mode only: count the domain as verified without DNS (labelled so)', answers: { 200: 'Domain' } }),
    secret,
    (ctx) => {
      ctx.body = present(markVerifiedWithoutDns(core, projectOf(ctx).id, ctx.params.id!));
    },
  );

  router.delete('/domains/:id', describe({ summary: 'Remove a sender domain', answers: { 204: null } }), secret, (ctx) => {
    deleteDomain(core, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
