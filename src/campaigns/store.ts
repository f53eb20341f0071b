import type { Dir } from '../store/offset-page.js';
import { parseJson, sql, type Db } from '../store/db.js';
import { offsetPage, searchCondition } from '../store/offset-page.js';
import type { EmailContentFields, TemplateType } from '../templates/store.js';
import type { ReadOptions, Reader } from '../store/reader.js';

export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

export interface CampaignCounters {
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  complainedCount: number;
  /** Recipients who unsubscribed through this campaign's emails, once each (080_campaign_unsubscribes.sql). */
  unsubscribedCount: number;
  suppressedCount: number;
  /** Emails waiting for a retry now (097_campaign_preview_and_deferrals.sql). */
  deferredCount: number;
}

export interface Campaign extends CampaignCounters, EmailContentFields {
  id: string;
  projectId: string;
  /** The hidden preheader inboxes show after the subject (see compose/preheader.ts). */
  previewText: string | null;
  status: CampaignStatus;
  audienceType: AudienceType;
  audienceCondition: unknown;
  segmentId: string | null;
  scheduledFor: number | null;
  sentAt: number | null;
  sendRound: number;
  /** The fan-out walk's position: the last contact id it passed (contacts are walked in id order). */
  walkedTo: string | null;
  walked: boolean;
  pending: number;
  createdAt: number;
  updatedAt: number;
}

interface CampaignRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  preview_text: string | null;
  type: TemplateType;
  status: CampaignStatus;
  audience_type: AudienceType;
  audience_condition: string | null;
  segment_id: string | null;
  scheduled_for: number | null;
  sent_at: number | null;
  send_round: number;
  walk_after: string | null;
  walked: number;
  pending: number;
  total_recipients: number;
  sent_count: number;
  delivered_count: number;
  opened_count: number;
  clicked_count: number;
  bounced_count: number;
  complained_count: number;
  unsubscribed_count: number;
  suppressed_count: number;
  deferred_count: number;
  created_at: number;
  updated_at: number;
}

const toCampaign = (r: CampaignRow): Campaign => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  description: r.description,
  subject: r.subject,
  body: r.body,
  from: r.from_email,
  fromName: r.from_name,
  replyTo: r.reply_to,
  previewText: r.preview_text,
  type: r.type,
  status: r.status,
  audienceType: r.audience_type,
  audienceCondition: parseJson(r.audience_condition, null),
  segmentId: r.segment_id,
  scheduledFor: r.scheduled_for,
  sentAt: r.sent_at,
  sendRound: r.send_round,
  walkedTo: r.walk_after,
  walked: r.walked === 1,
  pending: r.pending,
  totalRecipients: r.total_recipients,
  sentCount: r.sent_count,
  deliveredCount: r.delivered_count,
  openedCount: r.opened_count,
  clickedCount: r.clicked_count,
  bouncedCount: r.bounced_count,
  complainedCount: r.complained_count,
  unsubscribedCount: r.unsubscribed_count,
  suppressedCount: r.suppressed_count,
  deferredCount: r.deferred_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

// The unit separator keeps a search from matching across two fields.
const searchText = (c: Campaign) => [c.name, c.subject, c.from, c.fromName ?? ''].join('\u001f').toLowerCase();

/** The columns a caller writes (content, audience, state); counters and the walk are kept by the send. */
const editable = (c: Campaign) => ({
  id: c.id,
  project_id: c.projectId,
  name: c.name,
  description: c.description,
  subject: c.subject,
  body: c.body,
  from_email: c.from,
  from_name: c.fromName,
  reply_to: c.replyTo,
  preview_text: c.previewText,
  type: c.type,
  status: c.status,
  audience_type: c.audienceType,
  audience_condition: c.audienceCondition === null ? null : JSON.stringify(c.audienceCondition),
  segment_id: c.segmentId,
  scheduled_for: c.scheduledFor,
  search_lc: searchText(c),
  updated_at: c.updatedAt,
});

export function insertCampaign(db: Db, c: Campaign): void {
  sql(
    db,
    `INSERT INTO campaigns (id, project_id, name, description, subject, body, from_email, from_name, reply_to, preview_text, type, status,
       audience_type, audience_condition, segment_id, scheduled_for, search_lc, created_at, updated_at)
     VALUES (@id, @project_id, @name, @description, @subject, @body, @from_email, @from_name, @reply_to, @preview_text, @type, @status,
       @audience_type, @audience_condition, @segment_id, @scheduled_for, @search_lc, @created_at, @updated_at)`,
  ).run({ ...editable(c), created_at: c.createdAt });
}

export function updateCampaign(db: Db, c: Campaign): void {
  sql(
    db,
    `UPDATE campaigns SET name = @name, description = @description, subject = @subject, body = @body, from_email = @from_email,
       from_name = @from_name, reply_to = @reply_to, preview_text = @preview_text, type = @type, status = @status, audience_type = @audience_type,
       audience_condition = @audience_condition, segment_id = @segment_id, scheduled_for = @scheduled_for, search_lc = @search_lc,
       updated_at = @updated_at
     WHERE project_id = @project_id AND id = @id`,
  ).run(editable(c));
}

export function findCampaignById(db: Db, projectId: string, id: string): Campaign | null {
  const row = sql(db, 'SELECT * FROM campaigns WHERE project_id = ? AND id = ?').get(projectId, id) as CampaignRow | undefined;
  return row ? toCampaign(row) : null;
}

export function deleteCampaignRow(db: Db, projectId: string, id: string): void {
  sql(db, 'DELETE FROM campaigns WHERE project_id = ? AND id = ?').run(projectId, id);
}

/** A new send round begins: the walk starts over, `totalRecipients` is the audience as counted now. */
export function startRound(db: Db, c: Pick<Campaign, 'projectId' | 'id'>, fields: { status: CampaignStatus; scheduledFor: number | null; total: number; now: number }): number {
  const row = sql(
    db,
    `UPDATE campaigns SET status = ?, scheduled_for = ?, total_recipients = ?, send_round = send_round + 1,
       walk_after = NULL, walked = 0, updated_at = ?
     WHERE project_id = ? AND id = ? RETURNING send_round`,
  ).get(fields.status, fields.scheduledFor, fields.total, fields.now, c.projectId, c.id) as { send_round: number };
  return row.send_round;
}

export function markSending(db: Db, c: Pick<Campaign, 'projectId' | 'id'>, now: number): void {
  sql(db, `UPDATE campaigns SET status = 'SENDING', sent_at = ?, updated_at = ? WHERE project_id = ? AND id = ?`).run(now, now, c.projectId, c.id);
}

export function setCampaignStatus(db: Db, c: Pick<Campaign, 'projectId' | 'id'>, status: CampaignStatus, now: number): void {
  sql(db, 'UPDATE campaigns SET status = ?, updated_at = ? WHERE project_id = ? AND id = ?').run(status, now, c.projectId, c.id);
}

/** Records a batch: who got the campaign (the key refuses a second time), and where the walk stands. */
export function addRecipient(db: Db, campaignId: string, contactId: string, emailId: string | null): boolean {
  return sql(db, 'INSERT INTO campaign_recipients (campaign_id, contact_id, email_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(campaignId, contactId, emailId).changes === 1;
}

export function advanceWalk(db: Db, campaignId: string, afterContactId: string, suppressed: number): void {
  sql(db, 'UPDATE campaigns SET walk_after = ?, suppressed_count = suppressed_count + ? WHERE id = ?').run(afterContactId, suppressed, campaignId);
}

/**
 * The audience of the send `round` is walked: `totalRecipients` becomes what was sent, and with
 * nothing pending the campaign is SENT. A cancelled (or newer) send is left as it is.
 */
export function finishWalk(db: Db, campaign: { id: string; sendRound: number }, now: number): void {
  sql(
    db,
    `UPDATE campaigns SET walked = 1, total_recipients = sent_count, updated_at = ?,
       status = CASE WHEN pending = 0 THEN 'SENT' ELSE status END
     WHERE id = ? AND send_round = ? AND status = 'SENDING'`,
  ).run(now, campaign.id, campaign.sendRound);
}

/** Where a walk of a campaign's emails stands: the last one passed, in (created_at, id) order. */
export interface EmailPosition {
  createdAt: number;
  id: string;
}

/**
 * The next `limit` emails of the campaign after `after` (a batch: see store/batches.ts): those
 * still queued or deferred end as failed, never to be attempted. Answers how many it passed, and
 * the last; a walk of the campaign's index, so no batch reads the emails of the ones before.
 */
export function failUnsentEmails(db: Db, campaignId: string, after: EmailPosition | null, now: number, limit: number): { passed: number; last: EmailPosition | null } {
  const from = after ?? { createdAt: -1, id: '' };
  const keys = sql(db, 'SELECT created_at AS createdAt, id FROM emails WHERE campaign_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?').all(
    campaignId,
    from.createdAt,
    from.id,
    limit,
  ) as EmailPosition[];
  const last = keys.at(-1) ?? null;
  if (last) {
    sql(
      db,
      `UPDATE emails SET status = 'failed', last_response = 'campaign cancelled', updated_at = ?
       WHERE campaign_id = ? AND (created_at, id) > (?, ?) AND (created_at, id) <= (?, ?) AND status IN ('queued', 'deferred')`,
    ).run(now, campaignId, from.createdAt, from.id, last.createdAt, last.id);
  }
  return { passed: keys.length, last };
}

export type CampaignSort = 'name' | 'createdAt' | 'updatedAt';

export interface CampaignListQuery {
  offset: number;
  pageSize: number;
  status: CampaignStatus | null;
  search: string | null;
  sort: CampaignSort;
  dir: Dir;
}

const ORDER_COLUMN: Record<CampaignSort, string> = { name: 'name COLLATE NOCASE', createdAt: 'created_at', updatedAt: 'updated_at' };

/** One page of the project's campaigns and the count over all pages. */
export async function listCampaigns(reader: Reader, read: ReadOptions, q: CampaignListQuery): Promise<{ data: Campaign[]; total: number }> {
  const where = ['project_id = ?'];
  const params: unknown[] = [read.projectId];
  if (q.status) {
    where.push('status = ?');
    params.push(q.status);
  }
  if (q.search) {
    const s = searchCondition(q.search);
    where.push(s.where);
    params.push(s.param);
  }
  const { rows, total } = await offsetPage<CampaignRow>(reader, read, { table: 'campaigns', columns: '*', where, params, orderBy: ORDER_COLUMN[q.sort], ...q });
  return { data: rows.map(toCampaign), total };
}

/** The project's campaigns in these states (usage reports read their audiences). */
export function campaignsIn(db: Db, projectId: string, statuses: readonly CampaignStatus[]): Campaign[] {
  return (
    sql(db, 'SELECT * FROM campaigns WHERE project_id = ? AND status IN (SELECT value FROM json_each(?)) ORDER BY created_at').all(
      projectId,
      JSON.stringify(statuses),
    ) as CampaignRow[]
  ).map(toCampaign);
}

/** Campaigns of every project that are sending now (what the progress log watches after a start). */
export const sendingCampaigns = (db: Db): Campaign[] => (sql(db, "SELECT * FROM campaigns WHERE status = 'SENDING'").all() as CampaignRow[]).map(toCampaign);


/** Contacts an audience's condition selects, and how many of them are unsubscribed, suppressed, or both. */
export interface AudienceTally {
  matching: number;
  unsubscribed: number;
  suppressed: number;
  unsubscribedAndSuppressed: number;
}

/**
 * Tallies the contacts `where` selects (a filter over `contacts c`, see filterWhere) in one pass on a
 * reader thread within the read's budget; suppression is a lookup by the suppressions' key.
 */
export async function tallyAudience(reader: Reader, read: ReadOptions, where: { text: string; params: unknown[] }): Promise<AudienceTally> {
  const row = await reader.get<AudienceTally>(
    read,
    `SELECT count(*) AS matching, coalesce(sum(c.subscribed = 0), 0) AS unsubscribed, coalesce(sum(s.email_lc IS NOT NULL), 0) AS suppressed,
       coalesce(sum(c.subscribed = 0 AND s.email_lc IS NOT NULL), 0) AS unsubscribedAndSuppressed
     FROM contacts c LEFT JOIN suppressions s ON s.project_id = c.project_id AND s.email_lc = c.email_lc
     WHERE budget() AND c.project_id = ? AND (${where.text})`,
    [read.projectId, ...where.params],
  );
  return row!;
}
