import { iso, isoOrNull } from '../clock.js';
import type { Campaign } from './store.js';


/** The Campaign resource as the API answers it: the spec's fields, plus complaints, unsubscribes and skipped suppressed addresses. */
export const presentCampaign = (c: Campaign) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  subject: c.subject,
  body: c.body,
  from: c.from,
  fromName: c.fromName,
  replyTo: c.replyTo,
  previewText: c.previewText,
  type: c.type,
  status: c.status,
  audienceType: c.audienceType,
  audienceCondition: c.audienceCondition,
  segmentId: c.segmentId,
  scheduledFor: isoOrNull(c.scheduledFor),
  totalRecipients: c.totalRecipients,
  sentCount: c.sentCount,
  deliveredCount: c.deliveredCount,
  openedCount: c.openedCount,
  clickedCount: c.clickedCount,
  bouncedCount: c.bouncedCount,
  complainedCount: c.complainedCount,
  unsubscribedCount: c.unsubscribedCount,
  suppressedCount: c.suppressedCount,
  projectId: c.projectId,
  sentAt: isoOrNull(c.sentAt),
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});
