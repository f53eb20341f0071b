import type { Core } from '../core.js';
import { assertSender } from '../domains/sender.js';
import type { MessageContent } from '../compose/content.js';
import { withPreheader } from '../compose/preheader.js';
import type { Campaign } from './store.js';

/**
 * What a campaign sends: bulk mail whatever its content type, so always tracked, always with
 * one-click unsubscribe and `Precedence: bulk`, and named by its campaign id; its preview text
 * leads the body.
 */
export function campaignContent(core: Core, campaign: Campaign): MessageContent {
  const { domain } = assertSender(core, campaign.projectId, campaign.from);
  return {
    type: campaign.type,
    subject: campaign.subject,
    html: withPreheader(campaign.body, campaign.previewText),
    from: { email: campaign.from, name: campaign.fromName },
    replyTo: campaign.replyTo,
    headers: {},
    attachments: [],
    tracked: true,
    listUnsubscribe: true,
    projectId: campaign.projectId,
    campaignId: campaign.id,
    senderDomain: domain,
    templateId: null,
    source: 'CAMPAIGN',
  };
}
