// What GET /stats/daily and GET /stats/overview answer.
export const METRICS = ['sent', 'delivered', 'bounced', 'complained', 'opened', 'clicked'] as const;
export type Metric = (typeof METRICS)[number];

export type DayStats = { date: string } & Record<Metric, number>;

export interface Overview {
  queue: { queued: number; deferred: number };
  last7Days: { sent: number; bounced: number; complained: number; bounceRate: number; complaintRate: number };
  outbound: { ok: boolean; detail: string; fix: string | null; checkedAt: string } | null;
  alerts: { kind: string; message: string; fix: string }[];
}
