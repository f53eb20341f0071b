import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { linkSigner, subscriptionUrls } from '../compose/links.js';
import type { Scope } from '../render/render.js';
import type { Execution } from './executions-store.js';

/**
 * The variables of an execution's placeholders: the contact's data (top level and under `data.`),
 * the MANUAL execution's context over it, the trigger event under `event.`, then the contact's id
 * and email and its subscription links, which nothing replaces.
 */
export function executionScope(core: Core, execution: Execution, contact: Contact): Scope {
  const { unsubscribeToken: _token, ...urls } = subscriptionUrls(linkSigner(core), { projectId: contact.projectId, contactId: contact.id });
  return {
    ...contact.data,
    data: contact.data,
    ...execution.context,
    event: execution.triggerEvent?.data ?? {},
    id: contact.id,
    email: contact.email,
    ...urls,
  };
}
