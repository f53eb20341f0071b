// The journal lines of a campaign's life for the operator: when its fan-out starts, when every email
// is queued, and when the last one reached its end (SENT, with what became of them) or it was
// cancelled. The end is a database trigger's doing, so sending campaigns are looked at every few
// seconds (a read per campaign while any sends, none otherwise).
import type { Core } from '../core.js';
import { findCampaignById, sendingCampaigns, type Campaign } from './store.js';

const LOOK_EVERY_MS = 5_000;

const countsOf = (c: Campaign) => ({
  recipients: c.totalRecipients,
  delivered: c.deliveredCount,
  bounced: c.bouncedCount,
  complained: c.complainedCount,
  opened: c.openedCount,
  clicked: c.clickedCount,
  unsubscribed: c.unsubscribedCount,
  suppressed: c.suppressedCount,
});

export class CampaignProgressLog {
  /** Sending campaigns by id, with their project. */
  private readonly watched = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly core: Core) {
    for (const campaign of sendingCampaigns(core.db)) this.watched.set(campaign.id, campaign.projectId);
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS).unref();
  }

  fanOutStarted(campaign: Campaign): void {
    this.watched.set(campaign.id, campaign.projectId);
    this.core.log.info('campaign sending', { campaignId: campaign.id, projectId: campaign.projectId, name: campaign.name, audience: campaign.totalRecipients });
  }

  fanOutDone(campaign: Campaign): void {
    const now = findCampaignById(this.core.db, campaign.projectId, campaign.id);
    if (now) this.core.log.info('campaign queued', { campaignId: now.id, projectId: now.projectId, emails: now.sentCount, suppressed: now.suppressedCount });
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private look(): void {
    for (const [id, projectId] of this.watched) {
      const campaign = findCampaignById(this.core.db, projectId, id);
      if (campaign?.status === 'SENDING' || campaign?.status === 'SCHEDULED') continue;
      this.watched.delete(id);
      if (campaign) this.core.log.info(campaign.status === 'SENT' ? 'campaign sent' : 'campaign stopped', { campaignId: id, projectId, status: campaign.status, ...countsOf(campaign) });
    }
  }
}
