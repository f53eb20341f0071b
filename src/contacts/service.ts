import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { conflict, foundOr404, notFound } from '../errors.js';
import { CONTACT_EVENTS } from '../bus/catalogue.js';
import type { KeyKind } from '../projects/keys.js';
import { suppressionOf } from '../suppressions/store.js';
import { mergeData, type ContactData } from './data.js';
import { clearOptOut, optOutOf, recordOptOut, type OptOutReason } from './opt-outs-store.js';
import { deleteContactRow, findContactByEmail, findContactById, insertContact, updateContact, type Contact } from './store.js';

export interface ContactInput {
  email: string;
  subscribed?: boolean;
  data?: ContactData;
  /** The key that asks (default secret): the public key may not undo what isOptedOut protects. */
  requestedBy?: KeyKind;
}

export interface UpsertResult {
  contact: Contact;
  isNew: boolean;
  /** One-off data of this request (`{value, persistent: false}`), for rendering only. */
  oneOff: ContactData;
}

export type UnsubscribeReason = OptOutReason;

/** Emits contact.subscribed / contact.unsubscribed for a flip; call inside the transaction that wrote it. */
function emitFlip(core: Core, contact: Contact, reason?: UnsubscribeReason): void {
  core.bus.emit({
    projectId: contact.projectId,
    contactId: contact.id,
    name: contact.subscribed ? CONTACT_EVENTS.subscribed : CONTACT_EVENTS.unsubscribed,
    data: reason && reason !== 'unsubscribe-link' ? { reason } : {},
    at: contact.updatedAt,
  });
}

/**
 * Whether the contact's unsubscribe is one the public key may not undo: the contact's own (link,
 * one-click, mailto), a bounce's or a complaint's, or the address is suppressed.
 */
function isOptedOut(core: Core, contact: Contact): boolean {
  return optOutOf(core.db, contact.projectId, contact.id) !== null || suppressionOf(core.db, contact.projectId, contact.email) !== null;
}

/** The subscription an input asks of an existing contact, once the public key's limit is applied (undefined: unchanged). */
function wantedSubscription(core: Core, existing: Contact, input: ContactInput): boolean | undefined {
  if (input.subscribed !== true || existing.subscribed || input.requestedBy !== 'public') return input.subscribed;
  return isOptedOut(core, existing) ? undefined : true;
}

/**
 * Writes a changed contact. A flip emits its event; an unsubscribe with a reason records the opt-out
 * (kept by the first reason), and any resubscribe removes it.
 */
function saveContact(core: Core, before: Contact, after: Contact, reason?: UnsubscribeReason): void {
  updateContact(core.db, after);
  core.bus.contactChanged({ projectId: after.projectId, contactId: after.id, change: 'updated' });
  if (after.subscribed === before.subscribed) return;
  if (after.subscribed) clearOptOut(core.db, after.projectId, after.id);
  else if (reason) recordOptOut(core.db, after.projectId, after.id, reason, after.updatedAt);
  emitFlip(core, after, reason);
}

/**
 * The contact as upsertContact would leave it, without writing: what a send renders before its
 * transaction. `known` stands in for the stored contact (an earlier preview of the same address).
 */
export function previewUpsert(core: Core, projectId: string, input: ContactInput, defaultSubscribed: boolean, known?: Contact): UpsertResult {
  const existing = known ?? findContactByEmail(core.db, projectId, input.email);
  const merged = mergeData(existing?.data ?? {}, input.data);
  const now = core.clock.now();
  const contact: Contact = existing
    ? { ...existing, data: merged.data, subscribed: wantedSubscription(core, existing, input) ?? existing.subscribed }
    : { id: randomUUID(), projectId, email: input.email, subscribed: input.subscribed ?? defaultSubscribed, data: merged.data, createdAt: now, updatedAt: now };
  return { contact, isNew: !existing, oneOff: merged.oneOff };
}

/**
 * Creates the contact or applies the input to the existing one (matched by email, ignoring case).
 * `defaultSubscribed` applies to new contacts only; existing ones keep their state unless given.
 * `newId` lets a caller that prepared work for a new contact (a message naming it) fix its id.
 */
export function upsertContact(core: Core, projectId: string, input: ContactInput, defaultSubscribed: boolean, newId: string = randomUUID()): UpsertResult {
  return core.bus.tx(() => {
    const now = core.clock.now();
    let existing = findContactByEmail(core.db, projectId, input.email);
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
      if (insertContact(core.db, contact)) {
        core.bus.contactChanged({ projectId, contactId: contact.id, change: 'created' });
        return { contact, isNew: true, oneOff: merged.oneOff };
      }
      // another writer created it since the read: the input applies to theirs
      existing = findContactByEmail(core.db, projectId, input.email)!;
    }
    const merged = mergeData(existing.data, input.data);
    const subscribed = wantedSubscription(core, existing, input) ?? existing.subscribed;
    if (!merged.changed && subscribed === existing.subscribed) return { contact: existing, isNew: false, oneOff: merged.oneOff };
    const contact: Contact = { ...existing, data: merged.data, subscribed, updatedAt: now };
    saveContact(core, existing, contact);
    return { contact, isNew: false, oneOff: merged.oneOff };
  });
}

export function getContact(core: Core, projectId: string, id: string): Contact {
  return foundOr404(findContactById(core.db, projectId, id), 'Contact');
}

export interface ContactPatch {
  email?: string;
  subscribed?: boolean;
  data?: ContactData;
}

/** The secret key's change of a contact: it may resubscribe (a suppression stays, see suppressions/policy.ts). */
export function patchContact(core: Core, projectId: string, id: string, patch: ContactPatch): Contact {
  return core.bus.tx(() => {
    const existing = getContact(core, projectId, id);
    if (patch.email !== undefined && patch.email.toLowerCase() !== existing.email.toLowerCase()) {
      const other = findContactByEmail(core.db, projectId, patch.email);
      if (other) throw conflict('Another contact in this project already has this email', { email: patch.email });
    }
    const merged = mergeData(existing.data, patch.data);
    const contact: Contact = {
      ...existing,
      email: patch.email ?? existing.email,
      subscribed: patch.subscribed ?? existing.subscribed,
      data: merged.data,
      updatedAt: core.clock.now(),
    };
    saveContact(core, existing, contact);
    return contact;
  });
}

/**
 * Sets the subscription state (the contact's own links, bounces, complaints); emits only on a real
 * flip, and answers the contact as it is now and whether it flipped. An unsubscribe with a reason
 * is recorded even when the API had already unsubscribed the contact, so that the public key
 * cannot undo it either.
 */
export function setSubscribed(core: Core, given: Contact, subscribed: boolean, reason?: UnsubscribeReason): { contact: Contact; changed: boolean } {
  return core.bus.tx(() => {
    // the row as it is now: the caller's copy may predate a change (a page's form is read after its contact)
    const contact = findContactById(core.db, given.projectId, given.id);
    if (!contact) return { contact: given, changed: false };
    if (contact.subscribed === subscribed) {
      if (!subscribed && reason) recordOptOut(core.db, contact.projectId, contact.id, reason, core.clock.now());
      return { contact, changed: false };
    }
    const updated: Contact = { ...contact, subscribed, updatedAt: core.clock.now() };
    saveContact(core, contact, updated, reason);
    return { contact: updated, changed: true };
  });
}

export function deleteContact(core: Core, projectId: string, id: string): void {
  core.bus.tx(() => {
    if (!deleteContactRow(core.db, projectId, id)) throw notFound('Contact');
    core.bus.contactChanged({ projectId, contactId: id, change: 'deleted' });
  });
}
