// One recipient's message: the cheap part (ids, links, variables) on the main thread, the part that
// grows with the content (rendering, tracking, text part) wherever the MIME is built.
import type { ContactData } from '../contacts/data.js';
import type { Contact } from '../contacts/store.js';
import type { ComposeInput, Mailbox } from './mime.js';
import { textTemplateOf } from './text/text-part.js';
import { renderHtml, renderPlain, renderSubject, type Scope } from '../templates/render.js';
import { renderTrackedHtml } from '../tracking/tracked-html.js';
import type { ComposableContent } from './content.js';
import { contactLinks, trackingLinks, type LinkSigner } from './links.js';
import { contactScope } from './scope.js';

export interface Recipient {
  contact: Contact;
  /** One-off values of this request, rendered but never stored. */
  oneOff: ContactData;
  /** Display name for the To header. */
  name: string | null;
  /** Variables beyond the contact's (a workflow execution's context). */
  extra?: Scope;
  /** Another address than the contact's (a workflow's CUSTOM recipient): the variables stay the contact's. */
  to?: string;
}

/** What makes a message this recipient's: plain data, so it can cross to a compose thread. */
export interface Personalization {
  emailId: string;
  to: Mailbox;
  scope: Scope;
  /** One-click unsubscribe and its mailto fallback, where the content carries them. */
  unsubscribe: { url: string; mailto: string } | null;
}

/** Where and when the message is composed: the Message-ID host, the Date, and the signer of click links. */
export interface ComposeEnv {
  hostname: string;
  date: number;
  signer: LinkSigner;
}

export function personalizationFor(
  signer: LinkSigner,
  content: Pick<ComposableContent, 'listUnsubscribe'> & { senderDomain: string },
  recipient: Recipient,
  emailId: string,
): Personalization {
  const { contact } = recipient;
  const links = contactLinks(signer, { projectId: contact.projectId, contactId: contact.id, emailId }, content.senderDomain);
  return {
    emailId,
    to: { email: recipient.to ?? contact.email, name: recipient.name },
    scope: contactScope(contact, recipient.oneOff, links, recipient.extra),
    unsubscribe: content.listUnsubscribe ? { url: links.unsubscribeUrl, mailto: links.unsubscribeMailto } : null,
  };
}

/** Everything of one recipient's message but the MIME building: variables rendered, tracking added. Runs on any thread. */
export function composeInputFor(content: ComposableContent, p: Personalization, env: ComposeEnv): ComposeInput {
  const textTemplate = textTemplateOf(content.html);
  return {
    emailId: p.emailId,
    hostname: env.hostname,
    date: new Date(env.date),
    from: content.from,
    to: p.to,
    replyTo: content.replyTo,
    subject: renderSubject(content.subject, p.scope),
    html: content.tracked ? renderTrackedHtml(content.html, p.scope, trackingLinks(env.signer, p.emailId)) : renderHtml(content.html, p.scope),
    ...(textTemplate !== null ? { text: renderPlain(textTemplate, p.scope) } : {}),
    attachments: content.attachments,
    headers: content.headers,
    unsubscribe: p.unsubscribe,
    campaign: content.campaignId ? { id: content.campaignId, projectId: content.projectId } : null,
  };
}
