import { iso } from '../clock.js';
import { EMAIL_EVENTS } from '../events/catalogue.js';
import type { Ctx } from '../context.js';
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

/** A permanent bounce or a complaint: the contact is unsubscribed with the reason and the address suppressed. */
function dropContact(ctx: Ctx, email: Email, reason: SuppressionReason): void {
  const now = ctx.clock.now();
  suppress(ctx.db, email.projectId, email.to, reason, email.id, now);
  const contact = email.contactId ? findContactById(ctx.db, email.projectId, email.contactId) : null;
  if (contact) setSubscribed(ctx, contact, false, reason);
}

/**
 * Every bounce, synchronous (the remote 5xx, retries running out) or asynchronous (a DSN), ends
 * here. Permanent: status bounced, event, unsubscription and suppression, once per email.
 * Transient: an informational event; when `final`, the email ends as failed.
 */
export function recordBounce(ctx: Ctx, email: Email, report: BounceReport): void {
  ctx.bus.tx(() => {
    const now = ctx.clock.now();
    const extra = report.diagnostic ? { diagnosticCode: report.diagnostic } : {};
    if (report.bounceType === 'Permanent') {
      if (!markBounced(ctx.db, email.id, report.diagnostic, now)) return;
      ctx.bus.emit({
        projectId: email.projectId,
        name: EMAIL_EVENTS.bounce,
        contactId: email.contactId,
        emailId: email.id,
        data: { ...emailEventBase(email), bounceType: 'Permanent', bouncedAt: iso(now), ...extra },
        at: now,
      });
      dropContact(ctx, email, 'bounce');
      return;
    }
    if (report.final) setEmailStatus(ctx.db, email.id, 'failed', report.diagnostic, now);
    ctx.bus.emit({
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
export function recordComplaint(ctx: Ctx, email: Email, feedbackType: string): void {
  ctx.bus.tx(() => {
    const now = ctx.clock.now();
    if (!markComplained(ctx.db, email.id, now)) return;
    ctx.bus.emit({
      projectId: email.projectId,
      name: EMAIL_EVENTS.complaint,
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), complainedAt: iso(now), feedbackType },
      at: now,
    });
    dropContact(ctx, email, 'complaint');
  });
}
