import type { ContactData } from '../contacts/data.js';
import type { Contact } from '../contacts/store.js';
import type { Scope } from '../render/render.js';
import type { ContactLinks } from './links.js';

/**
 * The variables of a message to a contact: every data key at the top level and under `data.`,
 * the one-off values of the request over the stored ones, then extra values (a workflow
 * execution's context) over both, then the contact's id and email and the subscription links,
 * which nothing can replace.
 */
export function contactScope(contact: Contact, oneOff: ContactData, links: ContactLinks, extra: Scope = {}): Scope {
  const data = { ...contact.data, ...oneOff };
  return {
    ...data,
    data,
    ...extra,
    id: contact.id,
    email: contact.email,
    unsubscribeUrl: links.unsubscribeUrl,
    subscribeUrl: links.subscribeUrl,
    manageUrl: links.manageUrl,
  };
}
