// POST /v1/send: each recipient gets its contact upsert, its own rendered message, an email
// record, a delivery job and an email.sent event.
import { randomUUID } from 'node:crypto';
import type { ContactData } from '../contacts/data.js';
import { upsertContact } from '../contacts/service.js';
import type { Contact } from '../contacts/store.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest, validationFailed } from '../errors.js';
import { queueEmail } from '../emails/service.js';
import { newEmailRecord } from '../emails/store.js';
import '../emails/usage.js';
import { groupCommit } from '../events/group-commit.js';
import { MB } from '../http/json-body.js';
import { personalize, respectsSubscription } from '../mail/compose/personalize.js';
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

function sendOne(ctx: Ctx, projectId: string, request: SendRequest, content: SendContent, to: AddressInput): SentEmail {
  const address = typeof to === 'string' ? { email: to, name: null } : { email: to.email, name: to.name ?? null };
  // A recipient's display name is contact data of that recipient.
  const data: ContactData | undefined = address.name ? { ...request.data, name: address.name } : request.data;
  const { contact, oneOff } = upsertContact(ctx, projectId, { email: address.email, subscribed: request.subscribed, data }, false);
  if (respectsSubscription(content.type) && !contact.subscribed) throw unsubscribedRefusal(contact, content);
  const emailId = randomUUID();
  const message = personalize(ctx, content, { contact, oneOff, name: address.name }, emailId);
  if (message.raw.length > MAX_MESSAGE_BYTES) throw tooLarge(message.raw.length);
  const email = newEmailRecord(
    {
      id: emailId,
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
      subject: message.subject,
      senderDomain: content.senderDomain,
      messageId: message.messageId,
      status: 'queued',
    },
    ctx.clock.now(),
  );
  queueEmail(ctx, email, message.raw);
  return { contact: { id: contact.id, email: contact.email }, email: emailId };
}

/**
 * Validates what the schema cannot, resolves template and sender, then sends to each recipient
 * in turn. The recipients share one transaction (a group commit): a refusal of any one (say, an
 * unsubscribed contact and MARKETING content) leaves nothing written, so a corrected retry sends
 * no duplicates.
 */
export function sendEmails(ctx: Ctx, projectId: string, request: SendRequest): Promise<SentEmail[]> {
  const attachments = checkSendRules(request);
  const content = resolveContent(ctx, projectId, request, attachments);
  return groupCommit(ctx.bus)(() => recipientsOf(request.to).map((to) => sendOne(ctx, projectId, request, content, to)));
}
