import type { Db } from '../store/db.js';
import { senderCounts, type SenderCount } from './health-store.js';

/**
 * What the large mailbox providers ask of bulk senders (Gmail's and Yahoo's 2024 rules): spam
 * complaints under 0.3% of mail, and under 0.1% to be safe; a bounce rate under 2% is the common
 * mark of a clean list, over 5% a list in trouble. `target` is where a sender should stay, `limit`
 * where providers start refusing.
 */
export const HEALTH_THRESHOLDS = {
  complaintRate: { target: 0.001, limit: 0.003 },
  bounceRate: { target: 0.02, limit: 0.05 },
  /**
   * A window with fewer emails sent is not judged: one bounce of four read "critical". Under 100 a
   * single bounce or complaint is a percent, too few to tell a list from chance.
   */
  minimumSent: 100,
} as const;

/** The windows health is reported over, in days ending today (UTC). */
export const HEALTH_WINDOWS = [7, 30] as const;

export type HealthStatus = 'good' | 'warning' | 'critical' | 'unknown';

export interface WindowHealth {
  days: number;
  sent: number;
  bounced: number;
  complained: number;
  /** Of what was sent in the window; null when nothing was. */
  bounceRate: number | null;
  complaintRate: number | null;
}

export interface SenderHealth {
  /** The worse of the judged windows: critical over a limit, warning over a target; unknown when neither had `minimumSent` emails. */
  status: HealthStatus;
  windows: WindowHealth[];
  thresholds: typeof HEALTH_THRESHOLDS;
}

const rate = (n: number, of: number) => (of === 0 ? null : n / of);

/** The figures of the `days` days ending `today`. */
export function windowHealth(counts: readonly SenderCount[], today: number, days: number): WindowHealth {
  const sum = { sent: 0, bounced: 0, complained: 0 };
  for (const c of counts) if (c.day > today - days && c.day <= today) sum[c.metric] += c.count;
  return { days, ...sum, bounceRate: rate(sum.bounced, sum.sent), complaintRate: rate(sum.complained, sum.sent) };
}

const RANK: Record<HealthStatus, number> = { unknown: 0, good: 1, warning: 2, critical: 3 };

function statusOf(w: WindowHealth): HealthStatus {
  if (w.bounceRate === null || w.complaintRate === null || w.sent < HEALTH_THRESHOLDS.minimumSent) return 'unknown';
  const { complaintRate: c, bounceRate: b } = HEALTH_THRESHOLDS;
  if (w.complaintRate >= c.limit || w.bounceRate >= b.limit) return 'critical';
  if (w.complaintRate >= c.target || w.bounceRate >= b.target) return 'warning';
  return 'good';
}

/** A sender domain's health from its daily counts (at least the last 30 days). */
export function senderHealth(counts: readonly SenderCount[], today: number): SenderHealth {
  const windows = HEALTH_WINDOWS.map((days) => windowHealth(counts, today, days));
  const status = windows.map(statusOf).reduce((worst, s) => (RANK[s] > RANK[worst] ? s : worst), 'unknown' as HealthStatus);
  return { status, windows, thresholds: HEALTH_THRESHOLDS };
}

const DAY_MS = 86_400_000;

/** A sender domain's health now, read from its daily counts. */
export function readSenderHealth(db: Db, projectId: string, domain: string, now: number): SenderHealth {
  const today = Math.floor(now / DAY_MS);
  const longest = Math.max(...HEALTH_WINDOWS);
  return senderHealth(senderCounts(db, projectId, domain, today - longest + 1, today), today);
}
