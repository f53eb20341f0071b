// The composition root's list: every resource's routes, jobs, usage reports, reactors and activity
// sources, each made with exactly what it uses: the core, and the capabilities of the assembly.
import { accountRoutes } from './api/accounts.js';
import { activityRoutes } from './api/activity.js';
import type { Assembly } from './assembly.js';
import { campaignAnalyticsRoutes } from './api/campaign-analytics.js';
import { campaignJobs } from './campaigns/jobs.js';
import { campaignRoutes } from './api/campaigns.js';
import { campaignUsage } from './campaigns/usage.js';
import { CampaignProgressLog } from './campaigns/progress-log.js';
import { bulkRoutes } from './api/contacts-bulk.js';
import { BULK_JOB, bulkJob } from './contacts/bulk/service.js';
import { importRoutes } from './api/contacts-import.js';
import { IMPORT_JOB, importJob } from './contacts/import/service.js';
import { contactJobSweep } from './contacts/jobs/sweep.js';
import { contactRoutes } from './api/contacts.js';
import { exportRoutes } from './api/contacts-export.js';
import { doctorJobs } from './doctor/periodic.js';
import { domainJobs } from './domains/jobs.js';
import { domainRoutes } from './api/domains.js';
import { emailRoutes } from './api/emails.js';
import { eventActivity } from './events/activity.js';
import { eventRoutes, trackRoutes } from './api/events.js';
import { idempotencyJobs } from './idempotency/sweep.js';
import { inboundJobs } from './inbound/process.js';
import { mediaRoutes } from './api/media.js';
import type { Module } from './module.js';
import { outboundDelivery, outboundModule } from './outbound/module.js';
import { tlsReportJobs } from './outbound/tls-policy/report-jobs.js';
import { projectRoutes } from './api/projects.js';
import { segmentJobs } from './segments/jobs.js';
import { segmentReactors } from './segments/reactor.js';
import { segmentRoutes } from './api/segments.js';
import { segmentUsage } from './segments/usage.js';
import { sendRoutes } from './api/send.js';
import { simulatorDelivery } from './simulator/delivery.js';
import { statsRoutes } from './api/stats.js';
import { suppressionRoutes } from './api/suppressions.js';
import { templateRoutes } from './api/templates.js';
import { trackingRoutes } from './api/tracking.js';
import { verifyRoutes } from './api/verify.js';
import { webhookSettingsRoutes } from './api/webhook-settings.js';
import { workflowActivity } from './workflows/activity.js';
import { workflowJobs } from './workflows/jobs.js';
import { workflowRoutes } from './api/workflows.js';
import { workflowTriggers } from './workflows/triggers.js';
import { workflowUsage } from './workflows/usage.js';

export function modules(a: Assembly): Module[] {
  const { core, dns, threads, usage } = a;
  const campaignProgress = new CampaignProgressLog(core);
  const delivery = outboundDelivery(core, dns);
  return [
    { routes: (guards) => accountRoutes(core, threads, guards) },
    // before the contacts' /contacts/:id, which would take /contacts/export for an id
    { routes: (guards) => exportRoutes(core, guards) },
    { routes: (guards) => contactRoutes(core, usage, guards) },
    { routes: (guards) => importRoutes(core, guards), jobs: (runner) => runner.register(IMPORT_JOB, importJob(core)) },
    { routes: (guards) => bulkRoutes(core, guards), jobs: (runner) => runner.register(BULK_JOB, bulkJob(core)) },
    { jobs: (runner) => contactJobSweep(runner, core) },
    { routes: (guards) => projectRoutes(core, guards) },
    { routes: (guards) => domainRoutes(core, dns, guards), jobs: (runner) => domainJobs(runner, core, dns) },
    { routes: (guards) => templateRoutes(core, { threads, usage }, guards) },
    { routes: (guards) => mediaRoutes(core, guards) },
    { routes: (guards) => sendRoutes(core, threads, guards) },
    { routes: (guards) => emailRoutes(core, { signer: a.signer, dns }, guards) },
    outboundModule(core, { delivery: simulatorDelivery(core, delivery), signer: a.signer, fanouts: a.fanouts, metrics: a.metrics }),
    { jobs: (runner) => tlsReportJobs(runner, core, { dns, delivery }) },
    { routes: (guards) => trackRoutes(core, guards) },
    { routes: (guards) => eventRoutes(core, usage, guards), activity: eventActivity },
    { routes: (guards) => activityRoutes(core, a.activity, guards) },
    { routes: () => trackingRoutes(core) },
    // before the campaigns' /campaigns/:id, which would take /campaigns/compare for an id
    { routes: (guards) => campaignAnalyticsRoutes(core, guards) },
    {
      routes: (guards) => campaignRoutes(core, { threads, usage }, guards),
      jobs: (runner) => campaignJobs(runner, core, { threads, fanouts: a.fanouts, progress: campaignProgress }),
      usage: campaignUsage,
      close: async () => campaignProgress.stop(),
    },
    { routes: (guards) => verifyRoutes(core, dns, guards) },
    { jobs: (runner) => inboundJobs(runner, core, { dns, metrics: a.metrics, threads, heavy: a.admission.heavy }) },
    { jobs: (runner) => idempotencyJobs(runner, core) },
    { routes: (guards) => segmentRoutes(core, usage, guards), jobs: (runner) => segmentJobs(runner, core), usage: segmentUsage, reactors: () => segmentReactors(core) },
    { routes: (guards) => webhookSettingsRoutes(core, guards) },
    { routes: (guards) => statsRoutes(core, guards), jobs: (runner) => doctorJobs(runner, { ...core, dns }) },
    { routes: (guards) => suppressionRoutes(core, guards) },
    {
      routes: (guards) => workflowRoutes(core, dns, guards),
      jobs: (runner) => workflowJobs(runner, core, { threads, dns }),
      usage: workflowUsage,
      reactors: () => [workflowTriggers(core).reactor],
      activity: workflowActivity,
    },
  ];
}
