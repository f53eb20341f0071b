// The invitation email, sent by the daemon through its own outbound path (the message pipeline,
// stored and delivered like any transactional email of the project). It needs a verified sender
// domain of the project: without one the owner passes the link on by hand. Its link acts as the
// recipient, so the email is sealed: listed in the project's log, its message shown to no one.
import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { newEmailId } from '../emails/ids.js';
import { sealEmail } from '../emails/sealed.js';
import { listProjectDomains } from '../domains/store.js';
import type { MessageContent } from '../compose/content.js';
import type { ComposeOps } from '../compose/compose-ops.js';
import { composeMessages, storeMessage } from '../compose/pipeline.js';
import type { Pools } from '../threads/pool.js';
import { getProject } from '../projects/store.js';
import { suppressionWithholding } from '../suppressions/policy.js';

const HTML = `<p>You have been invited to the project <strong>{{projectName}}</strong> on Postmill.</p>
<p><a href="{{inviteUrl}}">Accept the invitation</a></p>
<p>Or open this address: {{inviteUrl}}</p>
<p>A link to choose a password works once, within 24 hours.</p>`;

/**
 * Queues the invitation to `email` from `postmill@<a verified domain of the project>`, untracked
 * (the link must not pass through a click redirect); answers the email's id, or null when the
 * project has no verified domain or the address is suppressed.
 */
export async function sendInvitation(core: Core, threads: Pools<ComposeOps>, projectId: string, email: string, inviteUrl: string): Promise<string | null> {
  const domain = listProjectDomains(core.db, projectId).find((d) => d.status === 'verified');
  const project = getProject(core.db, projectId);
  if (!domain || !project) return null;
  if (suppressionWithholding(core.db, projectId, email, { messageType: 'TRANSACTIONAL', sourceType: 'TRANSACTIONAL' })) return null;
  const content: MessageContent = {
    type: 'TRANSACTIONAL',
    subject: 'You are invited to {{projectName}} on Postmill',
    html: HTML,
    from: { email: `postmill@${domain.domain}`, name: 'Postmill' },
    replyTo: null,
    // no auto-reply (RFC 3834): one quoting the link would land in the project's inbound mail
    headers: { 'Auto-Submitted': 'auto-generated' },
    attachments: [],
    tracked: false,
    listUnsubscribe: false,
    projectId,
    campaignId: null,
    senderDomain: domain.domain,
    templateId: null,
    source: 'TRANSACTIONAL',
  };
  const now = core.clock.now();
  const contact = { id: randomUUID(), projectId, email, subscribed: false, data: {}, createdAt: now, updatedAt: now };
  const emailId = newEmailId(now);
  const recipient = { contact, oneOff: {}, name: null, extra: { projectName: project.name, inviteUrl } };
  const [composed] = await composeMessages(core, threads, content, [{ recipient, emailId }], Infinity);
  core.bus.tx(() => {
    storeMessage(core, content, { contactId: null, email }, emailId, composed!);
    sealEmail(core.db, emailId);
  });
  return emailId;
}
