// The composition root's list: every resource's routes, jobs, usage reports, reactors and activity sources, in one place.
import { accountRoutes } from './accounts/routes.js';
import { activityRoutes } from './activity/routes.js';
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

export const MODULES: Module[] = [
  { routes: accountRoutes },
  { routes: contactRoutes },
  { routes: importRoutes, jobs: importJobs },
  { routes: bulkRoutes, jobs: bulkJobs },
  { jobs: contactJobSweep },
  { routes: projectRoutes },
  { routes: domainRoutes, jobs: domainJobs },
  { routes: templateRoutes },
  { routes: sendRoutes, usage: emailUsage },
  { routes: trackRoutes },
  { routes: eventRoutes, activity: eventActivity },
  { routes: activityRoutes },
  { routes: trackingRoutes },
  { routes: campaignRoutes, jobs: campaignJobs, usage: campaignUsage },
  { routes: verifyRoutes },
  { jobs: inboundJobs },
  { jobs: idempotencyJobs },
  { routes: segmentRoutes, jobs: segmentJobs, usage: segmentUsage, reactors: segmentReactors },
  { routes: webhookSettingsRoutes },
  { routes: statsRoutes, jobs: doctorJobs },
  { routes: suppressionRoutes },
  { routes: workflowRoutes, jobs: workflowJobs, usage: workflowUsage, reactors: (ctx) => [workflowTriggers(ctx).reactor], activity: workflowActivity },
];
