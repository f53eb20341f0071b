// A campaign's analytics: its outcomes over time, its links and its recipient domains, read from
// the counts migration 099 keeps (never from its emails or events).
//
// Time runs from the send: the hour of `sentAt` (when the campaign went SENDING and its fan-out
// began) is the first bucket. By default the first 48 hours are hourly buckets and the time after
// them 24-hour buckets (each starting at the send's hour of day); `hour` or `day` makes every bucket
// that size. The series runs to the bucket of now (or of the latest outcome, past a clock change),
// every bucket present, zero when nothing happened. A series has at most MAX_SERIES_POINTS buckets:
// the default widens its daily buckets to stay within them, a fixed size past them is refused.
import { iso } from '../clock.js';
import type { Core } from '../core.js';
import { badRequest } from '../errors.js';
import { readFor } from '../store/reader.js';
import { domainCountsStatement, hourlyCounts, HOURLY_METRICS, linkCountsStatement, type DomainCounts, type HourCounts, type HourlyMetric, type LinkCounts } from './analytics-store.js';
import { campaignStats, getCampaign } from './service.js';
import type { Campaign } from './store.js';

export const BUCKETS = ['hour', 'day'] as const;
export type Bucket = (typeof BUCKETS)[number];
/** `auto`: hourly for the first HOURLY_HOURS after the send, then daily. */
export type BucketChoice = Bucket | 'auto';

const HOUR_MS = 3_600_000;
const HOURS: Record<Bucket, number> = { hour: 1, day: 24 };
export const HOURLY_HOURS = 48;
/** The links and domains answered, those with the most clicks or outcomes first. */
export const TOP_ROWS = 100;
/**
 * The most buckets one series answers: a year of hourly ones was 8,760 points, and compared ten
 * times 87,600. 1000 daily buckets are 2.7 years.
 */
export const MAX_SERIES_POINTS = 1000;

export type SeriesPoint = { at: string } & Record<HourlyMetric, number>;

/** `?bucket=`: absent or empty is the default, `hour` or `day` (any case) a fixed size, anything else the spec's 400. */
export function bucketQuery(raw: unknown): BucketChoice {
  if (raw === undefined || raw === '') return 'auto';
  const value = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (BUCKETS.includes(value as Bucket)) return value as Bucket;
  throw badRequest(`Unknown bucket ${JSON.stringify(raw)}`, 'Use hour or day, or leave it out: hourly for the first 48 hours after the send, then daily');
}

const zero = (): Record<HourlyMetric, number> => Object.fromEntries(HOURLY_METRICS.map((m) => [m, 0])) as Record<HourlyMetric, number>;

/**
 * The hours of a bucket after the first HOURLY_HOURS of the default: a day, or as many days as keep
 * the whole series within MAX_SERIES_POINTS.
 */
function autoLaterHours(hours: number): number {
  const days = Math.ceil(Math.max(hours - HOURLY_HOURS, 0) / 24);
  return 24 * Math.max(1, Math.ceil(days / (MAX_SERIES_POINTS - HOURLY_HOURS)));
}

/** A fixed bucket size whose series would pass MAX_SERIES_POINTS: the 400 that names a way out. */
function assertWithinPoints(hours: number, bucket: Bucket): void {
  const points = Math.ceil(hours / HOURS[bucket]);
  if (points <= MAX_SERIES_POINTS) return;
  throw badRequest(
    `bucket=${bucket} makes a series of ${points} points since the send; a series has at most ${MAX_SERIES_POINTS}`,
    bucket === 'hour' ? 'Use bucket=day, or leave bucket out' : `Leave bucket out: the default widens its buckets to stay within ${MAX_SERIES_POINTS} points`,
  );
}

/** The hours each bucket starts at, from the send's hour through `lastHour`. */
function bucketStarts(firstHour: number, lastHour: number, choice: BucketChoice): number[] {
  const hours = lastHour - firstHour + 1;
  if (choice !== 'auto') assertWithinPoints(hours, choice);
  const later = choice === 'auto' ? autoLaterHours(hours) : HOURS[choice];
  const starts: number[] = [];
  for (let hour = firstHour; hour <= lastHour; ) {
    starts.push(hour);
    hour += choice === 'auto' && hour - firstHour < HOURLY_HOURS ? 1 : later;
  }
  return starts;
}

/**
 * The hourly counts (oldest first) summed into buckets from the send's hour through now; pure.
 * Counts from before the send (a clock set back) go to the first bucket. No send, no series.
 */
export function seriesOf(hours: HourCounts[], sentAt: number | null, now: number, choice: BucketChoice): SeriesPoint[] {
  if (sentAt === null) return [];
  const firstHour = Math.floor(sentAt / HOUR_MS);
  const lastHour = Math.max(firstHour, Math.floor(now / HOUR_MS), hours.at(-1)?.hour ?? firstHour);
  const starts = bucketStarts(firstHour, lastHour, choice);
  const series = starts.map((hour) => ({ at: iso(hour * HOUR_MS), ...zero() }));
  let b = 0;
  for (const row of hours) {
    while (b + 1 < starts.length && starts[b + 1]! <= row.hour) b++;
    for (const m of HOURLY_METRICS) series[b]![m] += row[m];
  }
  return series;
}

export interface CampaignAnalytics {
  series: SeriesPoint[];
  links: LinkCounts[];
  domains: DomainCounts[];
}

/** The analytics of a campaign of the project (found by the caller). Links and domains are read on a reader thread: their rows grow with the audience. */
export async function campaignAnalytics(core: Core, campaign: Campaign, choice: BucketChoice): Promise<CampaignAnalytics> {
  const { projectId, id } = campaign;
  const read = readFor(core.config, projectId, 'request');
  const series = seriesOf(hourlyCounts(core.db, projectId, id), campaign.sentAt, core.clock.now(), choice);
  const links = linkCountsStatement(projectId, id, TOP_ROWS);
  const domains = domainCountsStatement(projectId, id, TOP_ROWS);
  return {
    series,
    links: await core.reader.all<LinkCounts>(read, links.text, links.params),
    domains: await core.reader.all<DomainCounts>(read, domains.text, domains.params),
  };
}

/** At most this many campaigns side by side: the columns of one table, the lines of one chart. */
export const MAX_COMPARED = 10;

/**
 * Campaigns of the project side by side, in the order asked (404 naming none of another project):
 * each one's counters and its series from its own send, bucket i of each covering the same time after it.
 */
export function compareCampaigns(core: Core, projectId: string, ids: string[], choice: BucketChoice) {
  const now = core.clock.now();
  return ids.map((id) => {
    const campaign = getCampaign(core, projectId, id);
    return {
      id,
      name: campaign.name,
      subject: campaign.subject,
      status: campaign.status,
      sentAt: campaign.sentAt === null ? null : iso(campaign.sentAt),
      stats: campaignStats(campaign),
      series: seriesOf(hourlyCounts(core.db, projectId, id), campaign.sentAt, now, choice),
    };
  });
}
