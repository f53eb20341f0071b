import { iso, isoOrNull } from '../clock.js';
import type { Email } from './store.js';


/** The email record as the API answers it. */
export const presentEmail = (e: Email) => ({
  id: e.id,
  contactId: e.contactId,
  templateId: e.templateId,
  campaignId: e.campaignId,
  sourceType: e.sourceType,
  type: e.messageType,
  status: e.status,
  to: e.to,
  from: e.from,
  fromName: e.fromName,
  replyTo: e.replyTo,
  subject: e.subject,
  messageId: e.messageId,
  opens: e.opens,
  clicks: e.clicks,
  firstOpenedAt: isoOrNull(e.firstOpenedAt),
  firstClickedAt: isoOrNull(e.firstClickedAt),
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
});

/** The base fields of every email event (the spec's Event data table). */
export const emailEventBase = (e: Email) => ({
  subject: e.subject,
  from: e.from,
  fromName: e.fromName ?? '',
  messageId: e.messageId,
  emailId: e.id,
  templateId: e.templateId,
  campaignId: e.campaignId,
  sourceType: e.sourceType,
});
