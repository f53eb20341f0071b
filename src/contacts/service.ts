import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { CONTACT_EVENTS } from '../events/catalogue.js';
import { mergeData, type ContactData } from './data.js';
import { deleteContactRow, findContactByEmail, findContactById, insertContact, updateContact, type Contact } from './store.js';

export interface ContactInput {
  email: string;
  subscribed?: boolean;
  data?: ContactData;
}

export interface UpsertResult {
  contact: Contact;
  isNew: boolean;
  /** One-off data of this request (`{value, persistent: false}`), for rendering only. */
  oneOff: ContactData;
}

export type UnsubscribeReason = 'bounce' | 'complaint' | 'unsubscribe-link';

/** Emits contact.subscribed / contact.unsubscribed for a flip; call inside the transaction that wrote it. */
function emitFlip(ctx: Ctx, contact: Contact, reason?: UnsubscribeReason): void {
  ctx.bus.emit({
    projectId: contact.projectId,
    contactId: contact.id,
    name: contact.subscribed ? CONTACT_EVENTS.subscribed : CONTACT_EVENTS.unsubscribed,
    data: reason && reason !== 'unsubscribe-link' ? { reason } : {},
    at: contact.updatedAt,
  });
}

/**
 * The contact as upsertContact would leave it, without writing: what a send renders before its
 * transaction. `known` stands in for the stored contact (an earlier preview of the same address).
 */
export function previewUpsert(ctx: Ctx, projectId: string, input: ContactInput, defaultSubscribed: boolean, known?: Contact): UpsertResult {
  const existing = known ?? findContactByEmail(ctx.db, projectId, input.email);
  const merged = mergeData(existing?.data ?? {}, input.data);
  const now = ctx.clock.now();
  const contact: Contact = existing
    ? { ...existing, data: merged.data, subscribed: input.subscribed ?? existing.subscribed }
    : { id: randomUUID(), projectId, email: input.email, subscribed: input.subscribed ?? defaultSubscribed, data: merged.data, createdAt: now, updatedAt: now };
  return { contact, isNew: !existing, oneOff: merged.oneOff };
}

/**
 * Creates the contact or applies the input to the existing one (matched by email, ignoring case).
 * `defaultSubscribed` applies to new contacts only; existing ones keep their state unless given.
 * `newId` lets a caller that prepared work for a new contact (a message naming it) fix its id.
 */
export function upsertContact(ctx: Ctx, projectId: string, input: ContactInput, defaultSubscribed: boolean, newId: string = randomUUID()): UpsertResult {
  return ctx.bus.tx(() => {
    const now = ctx.clock.now();
    const existing = findContactByEmail(ctx.db, projectId, input.email);
    if (!existing) {
      const merged = mergeData({}, input.data);
      const contact: Contact = {
        id: newId,
        projectId,
        email: input.email,
        subscribed: input.subscribed ?? defaultSubscribed,
        data: merged.data,
        createdAt: now,
        updatedAt: now,
      };
      insertContact(ctx.db, contact);
      return { contact, isNew: true, oneOff: merged.oneOff };
    }
    const merged = mergeData(existing.data, input.data);
    const flips = input.subscribed !== undefined && input.subscribed !== existing.subscribed;
    if (!merged.changed && !flips) return { contact: existing, isNew: false, oneOff: merged.oneOff };
    const contact: Contact = { ...existing, data: merged.data, subscribed: input.subscribed ?? existing.subscribed, updatedAt: now };
    updateContact(ctx.db, contact);
    if (flips) emitFlip(ctx, contact);
    return { contact, isNew: false, oneOff: merged.oneOff };
  });
}

export function getContact(ctx: Ctx, projectId: string, id: string): Contact {
  const contact = findContactById(ctx.db, projectId, id);
  if (!contact) throw notFound('Contact');
  return contact;
}

export interface ContactPatch {
  email?: string;
  subscribed?: boolean;
  data?: ContactData;
}

export function patchContact(ctx: Ctx, projectId: string, id: string, patch: ContactPatch): Contact {
  return ctx.bus.tx(() => {
    const existing = getContact(ctx, projectId, id);
    if (patch.email !== undefined && patch.email.toLowerCase() !== existing.email.toLowerCase()) {
      const other = findContactByEmail(ctx.db, projectId, patch.email);
      if (other) throw conflict('Another contact in this project already has this email', { email: patch.email });
    }
    const merged = mergeData(existing.data, patch.data);
    const contact: Contact = {
      ...existing,
      email: patch.email ?? existing.email,
      subscribed: patch.subscribed ?? existing.subscribed,
      data: merged.data,
      updatedAt: ctx.clock.now(),
    };
    updateContact(ctx.db, contact);
    if (contact.subscribed !== existing.subscribed) emitFlip(ctx, contact);
    return contact;
  });
}

/** Sets the subscription state (unsubscribe pages, bounces, complaints); emits only on a real flip. */
export function setSubscribed(ctx: Ctx, contact: Contact, subscribed: boolean, reason?: UnsubscribeReason): Contact {
  if (contact.subscribed === subscribed) return contact;
  return ctx.bus.tx(() => {
    const updated: Contact = { ...contact, subscribed, updatedAt: ctx.clock.now() };
    updateContact(ctx.db, updated);
    emitFlip(ctx, updated, reason);
    return updated;
  });
}

export function deleteContact(ctx: Ctx, projectId: string, id: string): void {
  if (!deleteContactRow(ctx.db, projectId, id)) throw notFound('Contact');
}
