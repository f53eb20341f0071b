// POST /v1/send: each recipient gets its contact upsert, its own rendered message, an email
// record, a delivery job and an email.sent event.
import { randomUUID } from 'node:crypto';
import type { ContactData } from '../contacts/data.js';
import { previewUpsert, upsertContact, type ContactInput } from '../contacts/service.js';
import type { Contact } from '../contacts/store.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest, validationFailed } from '../errors.js';
import { queueEmail } from '../emails/service.js';
import { newEmailRecord } from '../emails/store.js';
import { groupCommit } from '../bus/group-commit.js';
import { MB } from '../http/json-body.js';
import { personalInput, personalize, respectsSubscription } from '../mail/compose/personalize.js';
import { forStore, type StoredComposition } from '../mail/compose/stored.js';
import { refuseSuppressed } from '../suppressions/policy.js';
import { resolveContent, type SendContent } from './content.js';
import type { AddressInput, SendRequest } from './request.js';
import { checkSendRules } from './rules.js';

/** The spec's limit on the whole composed message. */
export const MAX_MESSAGE_BYTES = 40 * MB;

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
}

const recipientsOf = (to: SendRequest['to']): AddressInput[] => (Array.isArray(to) ? to : [to]);

function unsubscribedRefusal(contact: Contact, content: SendContent): ApiError {
  return badRequest(
    `${contact.email} is unsubscribed, and ${content.type} content is sent only to subscribed contacts`,
    'Use a TRANSACTIONAL template, or pass "subscribed": true when the contact has agreed to receive this email',
  );
}

function tooLarge(size: number): ApiError {
  return validationFailed([
    { field: 'body', message: `The composed message is ${size} bytes; at most ${MAX_MESSAGE_BYTES / MB} MB`, code: 'too_big', received: `${size} bytes` },
  ]);
}

/** One recipient, prepared outside the transaction: its contact as the send will leave it and its composed message. */
interface Prepared {
  input: ContactInput;
  name: string | null;
  contact: Contact;
  emailId: string;
  subject: string;
  composed: StoredComposition;
}

function checkSize(composed: StoredComposition): StoredComposition {
  if (composed.size > MAX_MESSAGE_BYTES) throw tooLarge(composed.size);
  return composed;
}

async function prepare(ctx: Ctx, projectId: string, request: SendRequest, content: SendContent, to: AddressInput): Promise<Prepared> {
  const address = typeof to === 'string' ? { email: to, name: null } : { email: to.email, name: to.name ?? null };
  // A recipient's display name is contact data of that recipient.
  const data: ContactData | undefined = address.name ? { ...request.data, name: address.name } : request.data;
  const input: ContactInput = { email: address.email, subscribed: request.subscribed, data };
  const { contact, oneOff } = previewUpsert(ctx, projectId, input, false);
  if (respectsSubscription(content.type) && !contact.subscribed) throw unsubscribedRefusal(contact, content);
  refuseSuppressed(ctx, projectId, contact.email, content.type);
  const emailId = randomUUID();
  const composeInput = personalInput(ctx, content, { contact, oneOff, name: address.name }, emailId);
  const composed = checkSize(await ctx.mailThreads.compose(composeInput));
  return { input, name: address.name, contact, emailId, subject: composeInput.subject, composed };
}

/** In the transaction: the real upsert, the email record, its delivery job and email.sent. */
function commit(ctx: Ctx, projectId: string, content: SendContent, p: Prepared): SentEmail {
  const { contact, oneOff } = upsertContact(ctx, projectId, p.input, false, p.contact.id);
  if (respectsSubscription(content.type) && !contact.subscribed) throw unsubscribedRefusal(contact, content);
  // Rare: another request created this contact in the meantime, so the prepared links name an id
  // that was never stored. Compose again, here, for the contact that exists.
  const recomposed = contact.id === p.contact.id ? null : personalize(ctx, content, { contact, oneOff, name: p.name }, p.emailId);
  const composed = recomposed ? checkSize(forStore(recomposed)) : p.composed;
  const subject = recomposed?.subject ?? p.subject;
  const email = newEmailRecord(
    {
      id: p.emailId,
      projectId,
      contactId: contact.id,
      templateId: content.templateId,
      campaignId: null,
      sourceType: 'TRANSACTIONAL',
      messageType: content.type,
      to: contact.email,
      from: content.from.email,
      fromName: content.from.name,
      replyTo: content.replyTo,
      subject,
      senderDomain: content.senderDomain,
      messageId: composed.messageId,
      status: 'queued',
    },
    ctx.clock.now(),
  );
  queueEmail(ctx, email, composed.message);
  return { contact: { id: contact.id, email: contact.email }, email: p.emailId };
}

/**
 * Validates what the schema cannot, resolves template and sender, composes each recipient's message
 * (off the main thread), then writes every recipient in turn in one transaction (a group commit):
 * a refusal of any one (say, an unsubscribed contact and MARKETING content) leaves nothing written,
 * so a corrected retry sends no duplicates.
 */
export async function sendEmails(ctx: Ctx, projectId: string, request: SendRequest): Promise<SentEmail[]> {
  const attachments = checkSendRules(request);
  const content = resolveContent(ctx, projectId, request, attachments);
  const prepared = await Promise.all(recipientsOf(request.to).map((to) => prepare(ctx, projectId, request, content, to)));
  return groupCommit(ctx.bus)(() => prepared.map((p) => commit(ctx, projectId, content, p)));
}
