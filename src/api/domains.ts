import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { notFound } from '../errors.js';
import type { Guards } from './guards/guards.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { readSenderHealth } from '../domains/health.js';
import { checkHostname } from '../domains/hostname.js';
import { keptFor } from '../memo.js';
import { domainPresenter } from '../domains/present.js';
import { rotateDomainKey } from '../domains/rotation.js';
import { deleteDomain, getDomain, markVerifiedWithoutDns, registerDomain, verifyDomain } from '../domains/service.js';
import { listProjectDomains, type Domain } from '../domains/store.js';
import { warmupState } from '../outbound/warmup.js';
import type { Dns } from '../dns/resolver.js';

export function domainRoutes(core: Core, dns: Dns, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  // Sender domains are an ADMIN's business (a MEMBER sends from them, but does not add or remove them).
  const secret = guards.key('secret', { role: 'ADMIN' });
  // A GET, but the check stores its outcome (status, record flags): a write for a disabled project.
  const secretWrite = guards.key('secret', { access: 'write', role: 'ADMIN' });
  const records = domainPresenter(core);
  // what the domain's mail has met: its warm-up today and its bounce and complaint rates
  const withMail = <T extends object>(d: Domain, shown: T) => {
    const now = core.clock.now();
    return { ...shown, warmup: warmupState(core.db, core.config.delivery.warmup, d.projectId, d.domain, now), health: readSenderHealth(core.db, d.projectId, d.domain, now) };
  };
  const present = (d: Domain) => withMail(d, records.one(d));
  const presentAll = (projectId: string, domains: Domain[]) => records.list(projectId, domains).map((shown, i) => withMail(domains[i]!, shown));

  router.post('/domains', describe({ summary: 'Register a sender domain', body: 'domain-create', answers: { 201: 'Domain' } }), secret, async (ctx) => {
    const { domain } = validate<{ domain: string }>('domain-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = present(await registerDomain(core, projectOf(ctx).id, domain));
  });

  // Every domain's records name the daemon's hostname: whether they can work is looked up at most once a minute (the console polls the list).
  const hostnameCheck = keptFor(core.clock, 60_000, 1, () => checkHostname(dns, core.config.hostname));
  const list = async (projectId: string) => {
    const { name, verdict, problem, fix } = await hostnameCheck('hostname');
    return { data: presentAll(projectId, listProjectDomains(core.db, projectId)), hostname: { name, verdict, problem, fix } };
  };

  router.get('/domains', describe({ summary: "The project's sender domains (as /domains/project/{projectId})", answers: { 200: 'DomainList' } }), secret, async (ctx) => {
    ctx.body = await list(projectOf(ctx).id);
  });

  router.get('/domains/project/:projectId', describe({ summary: 'Sender domains', answers: { 200: 'DomainList' } }), secret, async (ctx) => {
    const project = projectOf(ctx);
    if (ctx.params.projectId !== project.id) throw notFound('Project');
    ctx.body = await list(project.id);
  });

  router.get(
    '/domains/:id',
    describe({ summary: 'One sender domain', description: 'As the last check left it: a record per DKIM key and its state, the warm-up and the sender health', answers: { 200: 'Domain' } }),
    secret,
    (ctx) => {
      ctx.body = present(getDomain(core, projectOf(ctx).id, ctx.params.id!));
    },
  );

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

  router.post(
    '/domains/:id/rotate-key',
    describe({
      summary: 'Rotate the DKIM key',
      description:
        'A new key and selector (state pending) for each algorithm the domain signs with; it signs from the first check that finds its record in DNS, ' +
        'and the old key stays published (state retiring) for dkim.rotationOverlapDays, then is reported safe to remove. 409 while a new key is pending',
      answers: { 202: 'Domain' },
    }),
    secret,
    async (ctx) => {
      ctx.status = 202;
      ctx.body = present(await rotateDomainKey(core, projectOf(ctx).id, ctx.params.id!));
    },
  );

  router.delete('/domains/:id', describe({ summary: 'Remove a sender domain', answers: { 204: null } }), secret, (ctx) => {
    deleteDomain(core, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
