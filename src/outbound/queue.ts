import { iso } from '../clock.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import type { Core } from '../core.js';
import type { Lane } from '../jobs/types.js';
import { emailEventBase } from '../emails/present.js';
import type { PackedMessage } from '../emails/packing.js';
import { insertEmail, type Email } from '../emails/store.js';

export const DELIVER_JOB = 'email.deliver';

export interface DeliverPayload {
  emailId: string;
}

/**
 * Accepts a composed email for delivery: the record and its message, the durable delivery
 * job and the email.sent event, all in the caller's transaction (or one of their own).
 * `lane`: transactional mail (the default) is delivered ahead of bulk (campaign) mail, and only
 * bulk mail keeps to `delivery.bulkPerSecond`.
 */
export function queueEmail(core: Core, email: Email, message: PackedMessage, lane: Lane = 'transactional'): void {
  core.bus.tx(() => {
    insertEmail(core.db, email, message);
    const payload: DeliverPayload = { emailId: email.id };
    // no unique key: the email id is new (its insert above would fail otherwise), so is the job
    core.jobs.enqueue(DELIVER_JOB, payload, { projectId: email.projectId, lane });
    core.bus.emit({
      projectId: email.projectId,
      name: EMAIL_EVENTS.sent,
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), sentAt: iso(email.createdAt) },
      at: email.createdAt,
    });
  });
}
