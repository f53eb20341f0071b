// The counts that migration 099's triggers keep per campaign: by hour, by link, by recipient domain.
// Each query names the project, so a campaign id of another project reads nothing.
import { sql, type Db } from '../store/db.js';

export const HOURLY_METRICS = ['delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed'] as const;
export type HourlyMetric = (typeof HOURLY_METRICS)[number];

/** One hour's counts; `hour` is hours since 1970-01-01T00:00Z. */
export type HourCounts = { hour: number } & Record<HourlyMetric, number>;

export interface LinkCounts {
  url: string;
  clicks: number;
  uniqueClicks: number;
}

export interface DomainCounts {
  domain: string;
  delivered: number;
  deferred: number;
  bounced: number;
  complained: number;
}

const OWN_CAMPAIGN = '(SELECT id FROM campaigns WHERE project_id = ? AND id = ?)';

/** Every hour with an outcome, oldest first: at most one row per hour since the send. */
export function hourlyCounts(db: Db, projectId: string, campaignId: string): HourCounts[] {
  return sql(db, `SELECT hour, ${HOURLY_METRICS.join(', ')} FROM campaign_hourly WHERE campaign_id = ${OWN_CAMPAIGN} ORDER BY hour`).all(projectId, campaignId) as HourCounts[];
}

/** Reader statements (a campaign may have thousands of domains, or a link per recipient): the `limit` most clicked links. */
export const linkCountsStatement = (projectId: string, campaignId: string, limit: number) => ({
  text: `SELECT url, clicks, unique_clicks AS uniqueClicks FROM campaign_links WHERE budget() AND campaign_id = ${OWN_CAMPAIGN}
         ORDER BY clicks DESC, url LIMIT ?`,
  params: [projectId, campaignId, limit],
});

/** The `limit` domains with the most outcomes. */
export const domainCountsStatement = (projectId: string, campaignId: string, limit: number) => ({
  text: `SELECT domain, delivered, deferred, bounced, complained FROM campaign_domains WHERE budget() AND campaign_id = ${OWN_CAMPAIGN}
         ORDER BY delivered + deferred + bounced + complained DESC, domain LIMIT ?`,
  params: [projectId, campaignId, limit],
});
