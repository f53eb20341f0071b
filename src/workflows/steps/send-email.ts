// SEND_EMAIL: a template to the contact (or a CUSTOM address), through the message pipeline.
import { parseEmailAddress } from '../../addresses/email.js';
import { coverOf } from '../../domains/cover.js';
import { domainOfAddress } from '../../addresses/domain-name.js';
import { isTracked, respectsSubscription, type MessageContent } from '../../compose/content.js';
import { composeMessages, storeMessage } from '../../compose/pipeline.js';
import { suppressionOf } from '../../suppressions/store.js';
import { renderPlain } from '../../render/render.js';
import { findTemplateById } from '../../templates/store.js';
import type { StepHandler } from './step.js';
import { newEmailId } from '../../emails/ids.js';

interface SendEmailConfig {
  templateId: string;
  recipient?: { type: 'CONTACT' | 'CUSTOM'; customEmail?: string };
}

export const sendEmailStep: StepHandler = async ({ core, tools, execution, step, contact, scope }) => {
  const config = step.config as unknown as SendEmailConfig;
  const template = findTemplateById(core.db, execution.projectId, config.templateId);
  if (!template) return { kind: 'fail', error: `template ${config.templateId} no longer exists` };
  const custom = config.recipient?.type === 'CUSTOM';
  const written = custom ? renderPlain(config.recipient!.customEmail ?? '', scope).trim() : contact.email;
  // the API's syntax, and its form (punycode domain) that suppressions and contacts are matched in
  const to = parseEmailAddress(written)?.address;
  if (!to) return { kind: 'fail', error: `the recipient "${written}" is not an email address` };
  const senderDomain = coverOf(core.db, execution.projectId, domainOfAddress(template.from) ?? '').verified?.domain;
  if (!senderDomain) return { kind: 'fail', error: `the sender domain of ${template.from} is not verified` };
  // Marketing content respects the contact's subscription and every address's suppression.
  if (respectsSubscription(template.type)) {
    if (!custom && !contact.subscribed) return { kind: 'next', output: { skipped: 'unsubscribed', to } };
    if (suppressionOf(core.db, execution.projectId, to)) return { kind: 'next', output: { skipped: 'suppressed', to } };
  }
  const content: MessageContent = {
    type: template.type,
    subject: template.subject,
    html: template.body,
    from: { email: template.from, name: template.fromName },
    replyTo: template.replyTo,
    headers: {},
    attachments: [],
    tracked: isTracked(core, template.type, execution.projectId),
    // a CUSTOM recipient is not the contact: it is offered no unsubscribe of the contact's
    listUnsubscribe: !custom,
    projectId: execution.projectId,
    campaignId: null,
    senderDomain,
    templateId: template.id,
    source: 'WORKFLOW',
  };
  const emailId = newEmailId(core.clock.now());
  const recipient = { contact, oneOff: {}, name: null, extra: scope, to };
  const [composed] = await composeMessages(core, tools.threads, content, [{ recipient, emailId }], Number.POSITIVE_INFINITY);
  return {
    kind: 'next',
    output: { emailId, to, templateId: template.id },
    // transactional templates go ahead of bulk mail; marketing ones wait their turn with campaigns
    effect: () => void storeMessage(core, content, { contactId: custom ? null : contact.id, email: to }, emailId, composed!, template.type === 'TRANSACTIONAL' ? 'transactional' : 'bulk'),
  };
};
