import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import { setSubscribed } from '../contacts/service.js';
import { findContactById, type Contact } from '../contacts/store.js';
import { emailEventBase } from '../emails/present.js';
import { verifyToken, type ContactTokenKind } from './tokens.js';
import { countClick, countOpen, findEmailById, projectOfEmail } from '../emails/store.js';

function emailOf(ctx: Ctx, emailId: string) {
  const projectId = projectOfEmail(ctx.db, emailId);
  return projectId ? findEmailById(ctx.db, projectId, emailId) : null;
}

/** An open pixel was fetched: counts it and emits email.open. A bad token records nothing. */
export function recordOpen(ctx: Ctx, token: string): void {
  const payload = verifyToken(ctx, token);
  if (payload?.kind !== 'open') return;
  ctx.bus.tx(() => {
    const email = emailOf(ctx, payload.emailId);
    if (!email) return;
    const now = ctx.clock.now();
    const { opens, first } = countOpen(ctx.db, email.id, now);
    ctx.bus.emit({
      projectId: email.projectId,
      name: 'email.open',
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), openedAt: iso(now), opens, isFirstOpen: first },
      at: now,
    });
  });
}

/** A tracked link was followed: counts it, emits email.click, answers the signed URL (null for a bad token). */
export function recordClick(ctx: Ctx, token: string): string | null {
  const payload = verifyToken(ctx, token);
  if (payload?.kind !== 'click') return null;
  ctx.bus.tx(() => {
    const email = emailOf(ctx, payload.emailId);
    if (!email) return;
    const now = ctx.clock.now();
    const { clicks, first } = countClick(ctx.db, email.id, now);
    ctx.bus.emit({
      projectId: email.projectId,
      name: 'email.click',
      contactId: email.contactId,
      emailId: email.id,
      data: { ...emailEventBase(email), link: payload.url, clickedAt: iso(now), clicks, isFirstClick: first },
      at: now,
    });
  });
  return payload.url;
}

/** The contact a subscription-link token names, when the token is genuine and of the expected kind. */
export function contactOfToken(ctx: Ctx, token: string, kinds: ContactTokenKind[]): Contact | null {
  const payload = verifyToken(ctx, token);
  if (!payload || payload.kind === 'open' || payload.kind === 'click' || !kinds.includes(payload.kind)) return null;
  return findContactById(ctx.db, payload.projectId, payload.contactId);
}

export function changeSubscription(ctx: Ctx, contact: Contact, subscribed: boolean): Contact {
  return setSubscribed(ctx, contact, subscribed, subscribed ? undefined : 'unsubscribe-link');
}
