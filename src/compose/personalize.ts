// One recipient's message: the cheap part (ids, links, variables) on the main thread, the part that
// grows with the content (rendering, tracking, text part) wherever the MIME is built.
import type { ContactData } from '../contacts/data.js';
import type { Contact } from '../contacts/store.js';
import type { ComposeInput, Mailbox } from './mime.js';
import { textTemplateOf } from './text/text-part.js';
import { renderHtml, renderPlain, renderSubject, type Scope } from '../render/render.js';
import type { TrackingLinks } from '../tracking/rewrite.js';
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

/** A message's subject, HTML and text part (unless it must be converted from the rendered HTML) for one recipient's variables. */
export interface RenderedContent {
  subject: string;
  html: string;
  text?: string;
}

/**
 * The one rendering of a message's content for one recipient's variables, tracked (links through
 * `tracking`, the open pixel) or not (null). Sends and the template preview both render here.
 */
export function renderContent(content: Pick<ComposableContent, 'subject' | 'html'>, scope: Scope, tracking: TrackingLinks | null): RenderedContent {
  const textTemplate = textTemplateOf(content.html);
  return {
    subject: renderSubject(content.subject, scope),
    html: tracking ? renderTrackedHtml(content.html, scope, tracking) : renderHtml(content.html, scope),
    ...(textTemplate !== null ? { text: renderPlain(textTemplate, scope) } : {}),
  };
}

/** Everything of one recipient's message but the MIME building: variables rendered, tracking added. Runs on any thread. */
export function composeInputFor(content: ComposableContent, p: Personalization, env: ComposeEnv): ComposeInput {
  return {
    emailId: p.emailId,
    hostname: env.hostname,
    date: new Date(env.date),
    from: content.from,
    to: p.to,
    replyTo: content.replyTo,
    ...renderContent(content, p.scope, content.tracked ? trackingLinks(env.signer, p.emailId) : null),
    attachments: content.attachments,
    headers: content.headers,
    unsubscribe: p.unsubscribe,
    campaign: content.campaignId ? { id: content.campaignId, projectId: content.projectId } : null,
  };
}
