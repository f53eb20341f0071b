// What GET /campaigns/{id}, /stats, /analytics and GET /campaigns/compare answer, and how the
// analytics pages name and format it.

export const OUTCOMES = ['delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_LABELS: Record<Outcome, string> = {
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  bounced: 'Bounced',
  complained: 'Complaints',
  unsubscribed: 'Unsubscribed',
};

export type SeriesPoint = { at: string } & Record<Outcome, number>;

export interface CampaignCounts {
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  complainedCount: number;
  unsubscribedCount: number;
  openRate: number;
  clickRate: number;
  bounceRate: number;
  deliveryRate: number;
  unsubscribeRate: number;
  complaintRate: number;
}

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';

export interface CampaignSummary {
  id: string;
  name: string;
  subject: string;
  status: CampaignStatus;
  sentAt: string | null;
}

export interface Analytics {
  series: SeriesPoint[];
  links: { url: string; clicks: number; uniqueClicks: number }[];
  domains: { domain: string; delivered: number; deferred: number; bounced: number; complained: number }[];
}

export type Compared = CampaignSummary & { stats: CampaignCounts; series: SeriesPoint[] };

/** The bucket sizes the routes take; `auto` leaves the parameter out (hourly for 48 hours, then daily). */
export const BUCKETS = { auto: 'Hourly for 48 hours, then daily', hour: 'Hourly', day: 'Daily' } as const;
export type Bucket = keyof typeof BUCKETS;
export const bucketQuery = (bucket: Bucket) => (bucket === 'auto' ? '' : `bucket=${bucket}`);

/** The result rows of a campaign: its counter and, where the API gives one, its rate. */
export const RESULT_ROWS: { label: string; count: keyof CampaignCounts; rate?: keyof CampaignCounts }[] = [
  { label: 'Recipients', count: 'totalRecipients' },
  { label: 'Sent', count: 'sentCount' },
  { label: 'Delivered', count: 'deliveredCount', rate: 'deliveryRate' },
  { label: 'Opened', count: 'openedCount', rate: 'openRate' },
  { label: 'Clicked', count: 'clickedCount', rate: 'clickRate' },
  { label: 'Bounced', count: 'bouncedCount', rate: 'bounceRate' },
  { label: 'Complaints', count: 'complainedCount', rate: 'complaintRate' },
  { label: 'Unsubscribed', count: 'unsubscribedCount', rate: 'unsubscribeRate' },
];

/** Campaigns still changing: their pages ask again often. */
export const isLive = (status: CampaignStatus | undefined) => status === 'SENDING' || status === 'SCHEDULED';

/** A UTC instant as the console shows it: 2026-05-01 14:00 UTC. */
export const utc = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
