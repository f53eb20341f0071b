// One message for one contact: variables rendered, subscription links signed, MIME composed.
import type { ContactData } from '../../contacts/data.js';
import type { Contact } from '../../contacts/store.js';
import type { Ctx } from '../../context.js';
import type { MessageType } from '../../emails/store.js';
import { renderHtml, renderPlain, renderSubject } from '../../templates/render.js';
import { textTemplateOf } from '../text-part.js';
import { composeMessage, type ComposeAttachment, type ComposeInput, type Mailbox } from '../compose.js';
import { getProject } from '../../projects/store.js';
import { addTracking } from '../../tracking/rewrite.js';
import { contactLinks, trackingLinks } from './links.js';
import { contactScope } from './scope.js';

/** What is sent, before the recipient's variables are filled in. */
export interface MessageContent {
  type: MessageType;
  /** Template sources: `{{variables}}` are rendered per recipient. */
  subject: string;
  html: string;
  from: Mailbox;
  replyTo: string | null;
  headers: Record<string, string>;
  attachments: ComposeAttachment[];
  /** The verified domain that covers the sender: the bounce domain is `bounces.<senderDomain>`. */
  senderDomain: string;
  /** Open and click tracking: decided once for the content (see `isTracked`), not per recipient. */
  tracked: boolean;
}

export interface Recipient {
  contact: Contact;
  /** One-off values of this request, rendered but never stored. */
  oneOff: ContactData;
  /** Display name for the To header. */
  name: string | null;
}

export interface PersonalizedMessage {
  subject: string;
  raw: Buffer;
  messageId: string;
}

/** MARKETING and HEADLESS content respects subscription and carries one-click unsubscribe. */
export const respectsSubscription = (type: MessageType) => type !== 'TRANSACTIONAL';

/** Opens and clicks are tracked for marketing content, and for transactional mail where the project turned it on. */
export function isTracked(ctx: Ctx, type: MessageType, projectId: string): boolean {
  return respectsSubscription(type) || getProject(ctx.db, projectId)?.trackTransactional === true;
}

/** Everything of one recipient's message but the MIME building: variables rendered, links signed, tracking added. */
export function personalInput(ctx: Ctx, content: MessageContent, recipient: Recipient, emailId: string): ComposeInput {
  const { contact } = recipient;
  const links = contactLinks(ctx, { projectId: contact.projectId, contactId: contact.id, emailId }, content.senderDomain);
  const scope = contactScope(contact, recipient.oneOff, links);
  const html = renderHtml(content.html, scope);
  const textTemplate = textTemplateOf(content.html);
  return {
    emailId,
    hostname: ctx.config.hostname,
    date: new Date(ctx.clock.now()),
    from: content.from,
    to: { email: contact.email, name: recipient.name },
    replyTo: content.replyTo,
    subject: renderSubject(content.subject, scope),
    html: content.tracked ? addTracking(html, trackingLinks(ctx, emailId)) : html,
    ...(textTemplate !== null ? { text: renderPlain(textTemplate, scope) } : {}),
    attachments: content.attachments,
    headers: content.headers,
    unsubscribe: respectsSubscription(content.type) ? { url: links.unsubscribeUrl, mailto: links.unsubscribeMailto } : null,
  };
}

/** One recipient's message, composed on this thread. */
export function personalize(ctx: Ctx, content: MessageContent, recipient: Recipient, emailId: string): PersonalizedMessage {
  const input = personalInput(ctx, content, recipient, emailId);
  return { subject: input.subject, ...composeMessage(input) };
}
