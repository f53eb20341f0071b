// What a /v1/send request sends, before any recipient: the template's fields under the explicit ones.
import type { Core } from '../core.js';
import { assertSender } from '../domains/sender.js';
import { ApiError } from '../errors.js';
import type { MessageType } from '../emails/store.js';
import type { ComposeAttachment, Mailbox } from '../compose/mime.js';
import { isTracked, respectsSubscription, type MessageContent } from '../compose/content.js';
import { findTemplateById, type Template } from '../templates/store.js';
import type { AddressInput, SendRequest } from './request.js';

const templateNotFound = () =>
  new ApiError(404, 'TEMPLATE_NOT_FOUND', 'Template not found', { suggestion: 'Use the id of a template of this project' });

/**
 * The sender: an explicit `from` wins with its own name (or the deprecated `name` for a bare
 * address); without one the template's sender is used, renamed by `name` when given.
 */
function senderOf(request: SendRequest, template: Template | null): Mailbox {
  const from: AddressInput | undefined = request.from;
  if (typeof from === 'string') return { email: from, name: request.name ?? null };
  if (from) return { email: from.email, name: from.name ?? null };
  // the schema requires `from` when there is no template
  return { email: template!.from, name: request.name ?? template!.fromName };
}

export function resolveContent(core: Core, projectId: string, request: SendRequest, attachments: ComposeAttachment[]): MessageContent {
  const template = request.template ? findTemplateById(core.db, projectId, request.template) : null;
  if (request.template && !template) throw templateNotFound();
  const from = senderOf(request, template);
  const { domain } = assertSender(core, projectId, from.email);
  const type: MessageType = template?.type ?? 'TRANSACTIONAL';
  return {
    type,
    // the schema requires subject and body when there is no template
    subject: request.subject ?? template!.subject,
    html: request.body ?? template!.body,
    from,
    replyTo: request.reply ?? template?.replyTo ?? null,
    headers: request.headers ?? {},
    attachments,
    templateId: template?.id ?? null,
    campaignId: null,
    source: 'TRANSACTIONAL',
    projectId,
    listUnsubscribe: respectsSubscription(type),
    senderDomain: domain,
    tracked: isTracked(core, type, projectId),
  };
}
