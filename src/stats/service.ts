// What the console's overview shows: email outcomes per day, the queue now, and what a sender must
// act on. Everything reads kept counters or small indexes, never the project's events.
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import { OUTBOUND_CHECK } from '../doctor/outbound.js';
import { latestCheckResult } from '../doctor/store.js';
import { listProjectDomains } from '../domains/store.js';
import { badRequest } from '../errors.js';
import type { Db } from '../store/db.js';
import { DAILY_METRICS, DAY_MS, dailyCounts, pendingEmails, type DailyMetric } from './store.js';

export const SERIES_DAYS = [7, 30, 90] as const;

/** Bounce and complaint rates past these (of the emails sent in the last 7 days) put a sender's reputation at risk. */
export const BOUNCE_RATE_LIMIT = 0.02;
export const COMPLAINT_RATE_LIMIT = 0.001;
const RATE_WINDOW_DAYS = 7;

type DayCounts = { date: string } & Record<DailyMetric, number>;

export function seriesDays(raw: unknown): number {
  const days = raw === undefined ? 30 : Number(raw);
  if (!SERIES_DAYS.includes(days as (typeof SERIES_DAYS)[number])) throw badRequest('"days" must be 7, 30 or 90');
  return days;
}

/** The last `days` UTC days up to today, oldest first, every day present (zero when nothing happened). */
export function dailySeries(db: Db, clock: Clock, projectId: string, days: number): DayCounts[] {
  const today = Math.floor(clock.now() / DAY_MS);
  const first = today - days + 1;
  const series: DayCounts[] = Array.from({ length: days }, (_, i) => ({
    date: iso((first + i) * DAY_MS).slice(0, 10),
    ...(Object.fromEntries(DAILY_METRICS.map((m) => [m, 0])) as Record<DailyMetric, number>),
  }));
  for (const row of dailyCounts(db, projectId, first, today)) series[row.day - first]![row.metric] = row.count;
  return series;
}

export type AlertKind = 'domainNotVerified' | 'bounceRate' | 'complaintRate' | 'outboundBlocked';

export interface Alert {
  kind: AlertKind;
  message: string;
  fix: string;
}

const percent = (ratio: number) => Math.round(ratio * 10_000) / 100;

/** The queue now, the last 7 days' rates, the daemon's latest outbound check, and the alerts they raise. */
export function overview(db: Db, clock: Clock, projectId: string) {
  const week = dailySeries(db, clock, projectId, RATE_WINDOW_DAYS);
  const total = (m: DailyMetric) => week.reduce((sum, d) => sum + d[m], 0);
  const sent = total('sent');
  const bounced = total('bounced');
  const complained = total('complained');
  const bounceRate = sent === 0 ? 0 : bounced / sent;
  const complaintRate = sent === 0 ? 0 : complained / sent;
  const outbound = latestCheckResult(db, OUTBOUND_CHECK);

  const alerts: Alert[] = listProjectDomains(db, projectId)
    .filter((d) => d.status !== 'verified')
    .map((d) => ({
      kind: 'domainNotVerified',
      message: `The sender domain ${d.domain} is not verified${d.failureReason ? `: ${d.failureReason}` : ''}`,
      fix: 'Publish its DNS records (Domains), then check it again; mail from it is refused until it verifies',
    }));
  if (bounceRate > BOUNCE_RATE_LIMIT) {
    alerts.push({
      kind: 'bounceRate',
      message: `${percent(bounceRate)}% of the emails sent in the last 7 days bounced (${bounced} of ${sent}); above 2% mailbox providers start to distrust a sender`,
      fix: 'Remove addresses that no longer exist from your lists, and verify new addresses before mailing them',
    });
  }
  if (complaintRate > COMPLAINT_RATE_LIMIT) {
    alerts.push({
      kind: 'complaintRate',
      message: `${percent(complaintRate)}% of the emails sent in the last 7 days were reported as spam (${complained} of ${sent}); above 0.1% mail starts going to spam folders`,
      fix: 'Mail only people who asked for it, and make unsubscribing easy',
    });
  }
  if (outbound && !outbound.ok) {
    alerts.push({ kind: 'outboundBlocked', message: `Outbound SMTP failed its check: ${outbound.detail}`, fix: outbound.fix ?? 'Run postmill doctor' });
  }
  return {
    queue: pendingEmails(db, projectId),
    last7Days: { sent, bounced, complained, bounceRate: percent(bounceRate), complaintRate: percent(complaintRate) },
    outbound: outbound ? { ok: outbound.ok, detail: outbound.detail, fix: outbound.fix, checkedAt: iso(outbound.checkedAt) } : null,
    alerts,
  };
}
