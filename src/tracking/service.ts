import { iso } from '../clock.js';
import type { Core } from '../core.js';
import { setSubscribed } from '../contacts/service.js';
import { findContactById, type Contact } from '../contacts/store.js';
import { emailEventBase } from '../emails/present.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import { verifyToken, type ContactTokenKind } from './tokens.js';
import { trackableUrl } from './url.js';
import { countClick, countOpen, findEmailById, markUnsubscribed, projectOfEmail } from '../emails/store.js';
import { getProject } from '../projects/store.js';

/**
 * One open or click of an email: `count` updates the record and answers the event's own fields,
 * emitted with the base fields in the same transaction. An email that no longer exists records nothing.
 */
function recordEngagement(core: Core, emailId: string, name: typeof EMAIL_EVENTS.open | typeof EMAIL_EVENTS.click, count: (now: number) => Record<string, unknown>): void {
  core.bus.tx(() => {
    const projectId = projectOfEmail(core.db, emailId);
    const email = projectId ? findEmailById(core.db, projectId, emailId) : null;
    if (!email) return;
    const now = core.clock.now();
    const data = { ...emailEventBase(email), ...count(now) };
    core.bus.emit({ projectId: email.projectId, name, contactId: email.contactId, emailId: email.id, data, at: now });
  });
}

/** An open pixel was fetched: counts it and emits email.open. A bad token records nothing; answers whether the token was good. */
export function recordOpen(core: Core, token: string): boolean {
  const payload = verifyToken(core, token);
  if (payload?.kind !== 'open') return false;
  recordEngagement(core, payload.emailId, EMAIL_EVENTS.open, (now) => {
    const { opens, first } = countOpen(core.db, payload.emailId, now);
    return { openedAt: iso(now), opens, isFirstOpen: first };
  });
  return true;
}

/**
 * A tracked link was followed: counts it, emits email.click, answers the signed URL in the spelling a
 * Location header can carry (null for a bad token, or a URL signed before targets were normalised that cannot be).
 */
export function recordClick(core: Core, token: string): string | null {
  const payload = verifyToken(core, token);
  if (payload?.kind !== 'click') return null;
  const target = trackableUrl(payload.url);
  if (target === null) return null;
  recordEngagement(core, payload.emailId, EMAIL_EVENTS.click, (now) => {
    const { clicks, first } = countClick(core.db, payload.emailId, now);
    return { link: target, clickedAt: iso(now), clicks, isFirstClick: first };
  });
  return target;
}

/** What a subscription link names: its contact and, for a link in an email, that email. */
export interface SubscriptionLink {
  contact: Contact;
  emailId: string | null;
}

/** The link a subscription-link token names, when the token is genuine and of the expected kind. */
export function linkOfToken(core: Core, token: string, kinds: ContactTokenKind[]): SubscriptionLink | null {
  const payload = verifyToken(core, token);
  if (!payload || payload.kind === 'open' || payload.kind === 'click' || !kinds.includes(payload.kind)) return null;
  const contact = findContactById(core.db, payload.projectId, payload.contactId);
  return contact ? { contact, emailId: payload.emailId ?? null } : null;
}

/**
 * Whom the recipient hears from, as the pages name it: the sender's display name of the email the
 * link came in, or its address's domain; a link from no email (a webhook's) names the project.
 */
export function senderOfLink(core: Core, link: SubscriptionLink): string {
  const email = link.emailId ? findEmailById(core.db, link.contact.projectId, link.emailId) : null;
  if (email) return email.fromName?.trim() || email.from.slice(email.from.lastIndexOf('@') + 1);
  return getProject(core.db, link.contact.projectId)?.name ?? '';
}

/** Subscribes or unsubscribes the link's contact; an unsubscribe through an email's link is counted on that email (and its campaign). */
export function changeSubscription(core: Core, link: SubscriptionLink, subscribed: boolean): Contact {
  return core.bus.tx(() => {
    const { contact, changed } = setSubscribed(core, link.contact, subscribed, subscribed ? undefined : 'unsubscribe-link');
    if (changed && !subscribed && link.emailId) markUnsubscribed(core.db, contact.projectId, link.emailId, core.clock.now());
    return contact;
  });
}
