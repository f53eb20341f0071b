import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import { setSubscribed } from '../contacts/service.js';
import { findContactById, type Contact } from '../contacts/store.js';
import { emailEventBase } from '../emails/present.js';
import { EMAIL_EVENTS } from '../events/catalogue.js';
import { verifyToken, type ContactTokenKind } from './tokens.js';
import { trackableUrl } from './url.js';
import { countClick, countOpen, findEmailById, projectOfEmail } from '../emails/store.js';

/**
 * One open or click of an email: `count` updates the record and answers the event's own fields,
 * emitted with the base fields in the same transaction. An email that no longer exists records nothing.
 */
function recordEngagement(ctx: Ctx, emailId: string, name: typeof EMAIL_EVENTS.open | typeof EMAIL_EVENTS.click, count: (now: number) => Record<string, unknown>): void {
  ctx.bus.tx(() => {
    const projectId = projectOfEmail(ctx.db, emailId);
    const email = projectId ? findEmailById(ctx.db, projectId, emailId) : null;
    if (!email) return;
    const now = ctx.clock.now();
    const data = { ...emailEventBase(email), ...count(now) };
    ctx.bus.emit({ projectId: email.projectId, name, contactId: email.contactId, emailId: email.id, data, at: now });
  });
}

/** An open pixel was fetched: counts it and emits email.open. A bad token records nothing; answers whether the token was good. */
export function recordOpen(ctx: Ctx, token: string): boolean {
  const payload = verifyToken(ctx, token);
  if (payload?.kind !== 'open') return false;
  recordEngagement(ctx, payload.emailId, EMAIL_EVENTS.open, (now) => {
    const { opens, first } = countOpen(ctx.db, payload.emailId, now);
    return { openedAt: iso(now), opens, isFirstOpen: first };
  });
  return true;
}

/**
 * A tracked link was followed: counts it, emits email.click, answers the signed URL in the spelling a
 * Location header can carry (null for a bad token, or a URL signed before targets were normalised that cannot be).
 */
export function recordClick(ctx: Ctx, token: string): string | null {
  const payload = verifyToken(ctx, token);
  if (payload?.kind !== 'click') return null;
  const target = trackableUrl(payload.url);
  if (target === null) return null;
  recordEngagement(ctx, payload.emailId, EMAIL_EVENTS.click, (now) => {
    const { clicks, first } = countClick(ctx.db, payload.emailId, now);
    return { link: target, clickedAt: iso(now), clicks, isFirstClick: first };
  });
  return target;
}

/** The contact a subscription-link token names, when the token is genuine and of the expected kind. */
export function contactOfToken(ctx: Ctx, token: string, kinds: ContactTokenKind[]): Contact | null {
  const payload = verifyToken(ctx, token);
  if (!payload || payload.kind === 'open' || payload.kind === 'click' || !kinds.includes(payload.kind)) return null;
  return findContactById(ctx.db, payload.projectId, payload.contactId);
}

export function changeSubscription(ctx: Ctx, contact: Contact, subscribed: boolean): Contact {
  return setSubscribed(ctx, contact, subscribed, subscribed ? undefined : 'unsubscribe-link').contact;
}
