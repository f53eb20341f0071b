import { isSimulatorAddress } from '../addresses/simulator.js';
import { iso } from '../clock.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import type { Core } from '../core.js';
import { setSubscribed } from '../contacts/service.js';
import { findContactById } from '../contacts/store.js';
import { markBounced, markComplained, setEmailStatus } from '../emails/store.js';
import { emailEventBase } from '../emails/present.js';
import type { Email } from '../emails/store.js';
import { suppress, type SuppressionReason } from '../suppressions/store.js';

export interface BounceReport {
  bounceType: 'Permanent' | 'Transient';
  /** The remote answer or the report's diagnostic, kept on the email record. */
  diagnostic: string | null;
  /** Retries ran out (delivery.maxAge): the email ends as `failed`. */
  final?: boolean;
}

/** Simulator outcomes are marked, so that they never count in the project's rates (migration 095). */
const simulated = (email: Email) => (isSimulatorAddress(email.to) ? { simulated: true } : {});

/** A permanent bounce or a complaint: the contact is unsubscribed with the reason and the address suppressed. */
function dropContact(core: Core, email: Email, reason: SuppressionReason): void {
  const now = core.clock.now();
  suppress(core.db, email.projectId, email.to, reason, email.id, now);
  const contact = email.contactId ? findContactById(core.db, email.projectId, email.contactId) : null;
  if (contact) setSubscribed(core, contact, false, reason);
}

/**
 * Every bounce, synchronous (the remote 5xx, retries running out) or asynchronous (a DSN), ends
 * here. Permanent: status bounced, event, unsubscription and suppression, once per email.
 * Transient: an informational event; when `final`, the email ends as failed.
 */
export function recordBounce(core: Core, email: Email, report: BounceReport): void {
  core.bus.tx(() => {
    const now = core.clock.now();
    const extra = report.diagnostic ? { diagnosticCode: report.diagnostic } : {};
    if (report.bounceType === 'Permanent') {
      if (!markBounced(core.db, email.id, report.diagnostic, now)) return;
      core.bus.emit({
        projectId: email.projectId,
        name: EMAIL_EVENTS.bounce,
        contactId: email.contactId,
        emailId: email.id,
        data: { ...emailEventBase(email), bounceType: 'Permanent', bouncedAt: iso(now), ...extra, ...simulated(email) },
        at: now,
      });
      dropContact(core, email, 'bounce');
      return;
    }
    if (report.final) setEmailStatus(core.db, email.id, 'failed', report.diagnostic, now);
    core.bus.emit({
      projectId: email.projectId,
      name: EMAIL_EVENTS.bounce,
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), bounceType: 'Transient', transientBounce: true, ...extra },
      at: now,
    });
  });
}

/** A spam complaint (ARF): event, unsubscription with reason complaint, suppression; once per email. */
export function recordComplaint(core: Core, email: Email, feedbackType: string): void {
  core.bus.tx(() => {
    const now = core.clock.now();
    if (!markComplained(core.db, email.id, now)) return;
    core.bus.emit({
      projectId: email.projectId,
      name: EMAIL_EVENTS.complaint,
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), complainedAt: iso(now), feedbackType, ...simulated(email) },
      at: now,
    });
    dropContact(core, email, 'complaint');
  });
}
