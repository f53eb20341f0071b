import type { Ctx } from '../context.js';
import { assertSender } from '../domains/sender.js';
import type { MessageContent } from '../compose/content.js';
import type { Campaign } from './store.js';

/**
 * What a campaign sends: bulk mail whatever its content type, so always tracked, always with
 * one-click unsubscribe and `Precedence: bulk`, and named by its campaign id. `test` sends are
 * neither tracked nor counted.
 */
export function campaignContent(ctx: Ctx, campaign: Campaign, opts: { test?: boolean } = {}): MessageContent {
  const { domain } = assertSender(ctx, campaign.projectId, campaign.from);
  return {
    type: campaign.type,
    subject: opts.test ? `[TEST] ${campaign.subject}` : campaign.subject,
    html: campaign.body,
    from: { email: campaign.from, name: campaign.fromName },
    replyTo: campaign.replyTo,
    headers: {},
    attachments: [],
    tracked: !opts.test,
    listUnsubscribe: true,
    projectId: campaign.projectId,
    campaignId: opts.test ? null : campaign.id,
    senderDomain: domain,
    templateId: null,
    source: 'CAMPAIGN',
  };
}
