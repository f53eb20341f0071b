// POST /v1/send: each recipient gets its contact upsert, its own rendered message, an email
// record, a delivery job and an email.sent event, through the message pipeline.
import type { ContactData } from '../contacts/data.js';
import { previewUpsert, upsertContact, type ContactInput } from '../contacts/service.js';
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { ApiError, badRequest } from '../errors.js';
import { groupCommit } from '../bus/group-commit.js';
import { MB } from '../http/json-body.js';
import { respectsSubscription, type MessageContent } from '../compose/content.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import { composeMessages, storeMessage, type Composition } from '../compose/pipeline.js';
import type { Pools } from '../threads/pool.js';
import { resolveContent } from './content.js';
import type { ParsedSend } from './parse.js';
import { refuseSuppressed } from '../suppressions/policy.js';
import type { AddressInput, SendRequest } from './request.js';
import { newEmailId } from '../emails/ids.js';

/**
 * The spec's 40 MB limit of a whole message, applied to all messages of one request together:
 * the cost of a request is bounded whatever its number of recipients.
 */
export const MAX_REQUEST_BYTES = 40 * MB;
/** A contact created by a concurrent request between preview and commit: the send is prepared again. */
const PREPARE_ATTEMPTS = 3;

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
}

const recipientsOf = (to: SendRequest['to']): AddressInput[] => (Array.isArray(to) ? to : [to]);

function unsubscribedRefusal(contact: Contact, content: MessageContent): ApiError {
  return badRequest(
    `${contact.email} is unsubscribed, and ${content.type} content is sent only to subscribed contacts`,
    'Use a TRANSACTIONAL template, or pass "subscribed": true when the contact has agreed to receive this email',
  );
}

/** The prepared links name a contact id that another request's contact now stands in for. */
class ContactChanged extends ApiError {
  constructor(email: string) {
    super(409, 'CONFLICT', `The contact ${email} was changed by another request at the same time`, { suggestion: 'Retry the request' });
  }
}

/** One recipient before the transaction: its contact as the send will leave it. */
interface Prepared {
  input: ContactInput;
  name: string | null;
  contact: Contact;
  oneOff: ContactData;
  emailId: string;
}

/**
 * Recipients in order, each seeing the ones before it: an address given twice is one contact,
 * as if the recipients were sent one after the other.
 */
function prepareRecipients(core: Core, projectId: string, request: SendRequest, content: MessageContent): Prepared[] {
  const previewed = new Map<string, Contact>();
  return recipientsOf(request.to).map((to) => {
    const address = typeof to === 'string' ? { email: to, name: null } : { email: to.email, name: to.name ?? null };
    // A recipient's display name is contact data of that recipient.
    const data: ContactData | undefined = address.name ? { ...request.data, name: address.name } : request.data;
    const input: ContactInput = { email: address.email, subscribed: request.subscribed, data };
    const { contact, oneOff } = previewUpsert(core, projectId, input, false, previewed.get(address.email.toLowerCase()));
    previewed.set(address.email.toLowerCase(), contact);
    if (respectsSubscription(content.type) && !contact.subscribed) throw unsubscribedRefusal(contact, content);
    refuseSuppressed(core, projectId, contact.email, { messageType: content.type, sourceType: 'TRANSACTIONAL' });
    return { input, name: address.name, contact, oneOff, emailId: newEmailId(core.clock.now()) };
  });
}

/** In the transaction: the real upsert, then the email through the pipeline. */
function commit(core: Core, projectId: string, content: MessageContent, p: Prepared, composed: Composition): SentEmail {
  const { contact } = upsertContact(core, projectId, p.input, false, p.contact.id);
  if (contact.id !== p.contact.id) throw new ContactChanged(contact.email);
  if (respectsSubscription(content.type) && !contact.subscribed) throw unsubscribedRefusal(contact, content);
  storeMessage(core, content, { contactId: contact.id, email: contact.email }, p.emailId, composed);
  return { contact: { id: contact.id, email: contact.email }, email: p.emailId };
}

/**
 * Resolves template and sender, composes each recipient's message (off the main thread), then
 * writes every recipient in turn in one transaction (a group commit): a refusal of any one (say,
 * an unsubscribed contact and MARKETING content) leaves nothing written, so a corrected retry
 * sends no duplicates.
 */
export async function sendEmails(core: Core, threads: Pools<ComposeOps>, projectId: string, parsed: ParsedSend): Promise<SentEmail[]> {
  const content = resolveContent(core, projectId, parsed.request, parsed.attachments);
  for (let attempt = 1; ; attempt++) {
    const prepared = prepareRecipients(core, projectId, parsed.request, content);
    const addressed = prepared.map((p) => ({ recipient: { contact: p.contact, oneOff: p.oneOff, name: p.name }, emailId: p.emailId }));
    const composed = await composeMessages(core, threads, content, addressed, MAX_REQUEST_BYTES);
    try {
      return await groupCommit(core.bus)(() => prepared.map((p, i) => commit(core, projectId, content, p, composed[i]!)));
    } catch (err) {
      if (!(err instanceof ContactChanged) || attempt === PREPARE_ATTEMPTS) throw err;
    }
  }
}
