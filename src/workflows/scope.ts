import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { linkSigner, subscriptionUrls } from '../compose/links.js';
import type { Scope } from '../render/render.js';
import type { Execution } from './executions-store.js';

/**
 * The variables of a contact's placeholders in a workflow: its data (top level and under `data.`),
 * the `context` over it, the trigger event's data under `event.`, then the contact's id and email
 * and its subscription links, which nothing replaces.
 */
export function contactScope(core: Core, contact: Contact, extra: { context: Record<string, unknown>; event: Record<string, unknown> }): Scope {
  const { unsubscribeToken: _token, ...urls } = subscriptionUrls(linkSigner(core), { projectId: contact.projectId, contactId: contact.id });
  return {
    ...contact.data,
    data: contact.data,
    ...extra.context,
    event: extra.event,
    id: contact.id,
    email: contact.email,
    ...urls,
  };
}

/** An execution's variables: its contact's, with the MANUAL execution's context and the trigger event. */
export const executionScope = (core: Core, execution: Execution, contact: Contact): Scope =>
  contactScope(core, contact, { context: execution.context, event: execution.triggerEvent?.data ?? {} });
