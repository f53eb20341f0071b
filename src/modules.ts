// The composition root's list: every resource's routes, jobs, usage reports, reactors and activity
// sources, each made with exactly what it uses: the core, and the capabilities of the assembly.
import { accountRoutes } from './accounts/routes.js';
import { activityRoutes } from './activity/routes.js';
import type { Assembly } from './assembly.js';
import { campaignJobs } from './campaigns/jobs.js';
import { campaignRoutes } from './campaigns/routes.js';
import { campaignUsage } from './campaigns/usage.js';
import { bulkJobs, bulkRoutes } from './contacts/bulk/routes.js';
import { importJobs, importRoutes } from './contacts/import/routes.js';
import { contactJobSweep } from './contacts/jobs/sweep.js';
import { contactRoutes } from './contacts/routes.js';
import { doctorJobs } from './doctor/periodic.js';
import { domainJobs } from './domains/jobs.js';
import { domainRoutes } from './domains/routes.js';
import { emailUsage } from './emails/usage.js';
import { eventActivity } from './events/activity.js';
import { eventRoutes, trackRoutes } from './events/routes.js';
import { idempotencyJobs } from './http/idempotency.js';
import { inboundJobs } from './inbound/process.js';
import type { Module } from './module.js';
import { outboundModule } from './outbound/module.js';
import { projectRoutes } from './projects/routes.js';
import { segmentJobs } from './segments/jobs.js';
import { segmentReactors } from './segments/reactor.js';
import { segmentRoutes } from './segments/routes.js';
import { segmentUsage } from './segments/usage.js';
import { sendRoutes } from './send/routes.js';
import { statsRoutes } from './stats/routes.js';
import { suppressionRoutes } from './suppressions/routes.js';
import { templateRoutes } from './templates/routes.js';
import { trackingRoutes } from './tracking/routes.js';
import { verifyRoutes } from './verify/routes.js';
import { webhookSettingsRoutes } from './webhooks/routes.js';
import { workflowActivity } from './workflows/activity.js';
import { workflowJobs } from './workflows/jobs.js';
import { workflowRoutes } from './workflows/routes.js';
import { workflowTriggers } from './workflows/triggers.js';
import { workflowUsage } from './workflows/usage.js';

export function modules(a: Assembly): Module[] {
  const { core, dns, threads, usage } = a;
  return [
    { routes: (guards) => accountRoutes(core, threads, guards) },
    { routes: (guards) => contactRoutes(core, usage, guards) },
    { routes: (guards) => importRoutes(core, guards), jobs: (runner) => importJobs(runner, core) },
    { routes: (guards) => bulkRoutes(core, guards), jobs: (runner) => bulkJobs(runner, core) },
    { jobs: (runner) => contactJobSweep(runner, core) },
    { routes: (guards) => projectRoutes(core, guards) },
    { routes: (guards) => domainRoutes(core, dns, guards), jobs: (runner) => domainJobs(runner, core, dns) },
    { routes: (guards) => templateRoutes(core, { threads, usage }, guards) },
    { routes: (guards) => sendRoutes(core, threads, guards), usage: emailUsage },
    outboundModule(core, { dns, signer: a.signer, fanouts: a.fanouts, metrics: a.metrics }),
    { routes: (guards) => trackRoutes(core, guards) },
    { routes: (guards) => eventRoutes(core, usage, guards), activity: eventActivity },
    { routes: (guards) => activityRoutes(core, a.activity, guards) },
    { routes: () => trackingRoutes(core) },
    { routes: (guards) => campaignRoutes(core, { threads, usage }, guards), jobs: (runner) => campaignJobs(runner, core, { threads, fanouts: a.fanouts }), usage: campaignUsage },
    { routes: (guards) => verifyRoutes(core, dns, guards) },
    { jobs: (runner) => inboundJobs(runner, core, { dns, metrics: a.metrics }) },
    { jobs: (runner) => idempotencyJobs(runner, core) },
    { routes: (guards) => segmentRoutes(core, usage, guards), jobs: (runner) => segmentJobs(runner, core), usage: segmentUsage, reactors: () => segmentReactors(core) },
    { routes: (guards) => webhookSettingsRoutes(core, guards) },
    { routes: (guards) => statsRoutes(core, guards), jobs: (runner) => doctorJobs(runner, { ...core, dns }) },
    { routes: (guards) => suppressionRoutes(core, guards) },
    {
      routes: (guards) => workflowRoutes(core, guards),
      jobs: (runner) => workflowJobs(runner, core, { threads, dns }),
      usage: workflowUsage,
      reactors: () => [workflowTriggers(core).reactor],
      activity: workflowActivity,
    },
  ];
}
