// What the Messages and Outbox pages share: the API's email record, its timeline, the statuses and
// the query of a page of the log.
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'deferred', 'bounced', 'failed', 'suppressed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export interface Email {
  id: string;
  contactId: string | null;
  templateId: string | null;
  campaignId: string | null;
  sourceType: 'TRANSACTIONAL' | 'CAMPAIGN' | 'WORKFLOW' | 'INBOUND';
  type: 'TRANSACTIONAL' | 'MARKETING' | 'HEADLESS';
  status: EmailStatus;
  to: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  messageId: string;
  opens: number;
  clicks: number;
  firstOpenedAt: string | null;
  firstClickedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  at: string;
  /** The server that answered: `name[address]`, a relay's `host:port`, `capture` or `simulator`. */
  mx: string | null;
  tls: string | null;
  reply: string;
  outcome: 'delivered' | 'deferred' | 'bounced';
}

export interface EmailEvent {
  id: string;
  name: string;
  data: unknown;
  createdAt: string;
}

export interface EmailTimeline extends Email {
  attempts: Attempt[];
  events: EmailEvent[];
}

export interface EmailPage {
  data: Email[];
  cursor: string | null;
  hasMore: boolean;
}

export interface LogFilters {
  search: string;
  status: string;
  campaignId: string;
  /** Days (YYYY-MM-DD) in the browser's time zone, both inclusive. */
  since: string;
  until: string;
}

/** The query of one page of GET /emails: a day range becomes the instants of its first and last moment here. */
export function logQuery(f: LogFilters, limit: number, cursor: string | null): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (f.search) q.set('search', f.search);
  if (f.status) q.set('status', f.status);
  if (f.campaignId) q.set('campaignId', f.campaignId);
  if (f.since) q.set('since', new Date(`${f.since}T00:00:00`).toISOString());
  if (f.until) q.set('until', new Date(`${f.until}T23:59:59.999`).toISOString());
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

export const when = (iso: string): string => new Date(iso).toLocaleString();

/** The sender as a mail client shows it. */
export const sender = (e: Email): string => (e.fromName ? `${e.fromName} <${e.from}>` : e.from);
