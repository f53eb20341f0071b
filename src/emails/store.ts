import { sql, type Db } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';
import { packMessage, type PackedMessage } from './packing.js';

export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'deferred', 'bounced', 'failed', 'suppressed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type SourceType = 'TRANSACTIONAL' | 'CAMPAIGN' | 'WORKFLOW' | 'INBOUND';
/** The kind of content: MARKETING and HEADLESS respect subscription and carry List-Unsubscribe. */
export type MessageType = 'TRANSACTIONAL' | 'MARKETING' | 'HEADLESS';

export interface Email {
  id: string;
  projectId: string;
  contactId: string | null;
  templateId: string | null;
  campaignId: string | null;
  sourceType: SourceType;
  messageType: MessageType;
  to: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  senderDomain: string;
  messageId: string;
  status: EmailStatus;
  opens: number;
  clicks: number;
  firstOpenedAt: number | null;
  firstClickedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface EmailRow {
  id: string;
  project_id: string;
  contact_id: string | null;
  template_id: string | null;
  campaign_id: string | null;
  source_type: SourceType;
  message_type: MessageType;
  to_email: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  sender_domain: string;
  message_id: string;
  status: EmailStatus;
  opens: number;
  clicks: number;
  first_opened_at: number | null;
  first_clicked_at: number | null;
  created_at: number;
  updated_at: number;
}

/** What a new email record is made of; counters start at zero and both timestamps at `now`. */
export type NewEmail = Omit<Email, 'opens' | 'clicks' | 'firstOpenedAt' | 'firstClickedAt' | 'createdAt' | 'updatedAt'>;

export const newEmailRecord = (fields: NewEmail, now: number): Email => ({
  ...fields,
  opens: 0,
  clicks: 0,
  firstOpenedAt: null,
  firstClickedAt: null,
  createdAt: now,
  updatedAt: now,
});

export const EMAIL_COLUMNS =
  'id, project_id, contact_id, template_id, campaign_id, source_type, message_type, to_email, from_email, from_name, reply_to, subject, ' +
  'sender_domain, message_id, status, opens, clicks, first_opened_at, first_clicked_at, created_at, updated_at';

export const toEmail = (r: EmailRow): Email => ({
  id: r.id,
  projectId: r.project_id,
  contactId: r.contact_id,
  templateId: r.template_id,
  campaignId: r.campaign_id,
  sourceType: r.source_type,
  messageType: r.message_type,
  to: r.to_email,
  from: r.from_email,
  fromName: r.from_name,
  replyTo: r.reply_to,
  subject: r.subject,
  senderDomain: r.sender_domain,
  messageId: r.message_id,
  status: r.status,
  opens: r.opens,
  clicks: r.clicks,
  firstOpenedAt: r.first_opened_at,
  firstClickedAt: r.first_clicked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Stores the record and its message together; call inside the transaction of the send. */
export function insertEmail(db: Db, e: Email, message: PackedMessage): void {
  sql(db, `INSERT INTO emails (${EMAIL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    e.id,
    e.projectId,
    e.contactId,
    e.templateId,
    e.campaignId,
    e.sourceType,
    e.messageType,
    e.to,
    e.from,
    e.fromName,
    e.replyTo,
    e.subject,
    e.senderDomain,
    e.messageId,
    e.status,
    e.opens,
    e.clicks,
    e.firstOpenedAt,
    e.firstClickedAt,
    e.createdAt,
    e.updatedAt,
  );
  sql(db, 'INSERT INTO email_messages (email_id, raw, deflated) VALUES (?, ?, ?)').run(e.id, message.bytes, message.deflated ? 1 : 0);
}

export function findEmailById(db: Db, projectId: string, id: string): Email | null {
  const row = sql(db, `SELECT ${EMAIL_COLUMNS} FROM emails WHERE project_id = ? AND id = ?`).get(projectId, id) as EmailRow | undefined;
  return row ? toEmail(row) : null;
}

/** Our own Message-IDs are `<email id@host>` (see composerOptions). */
const OWN_MESSAGE_ID = /^<([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;

/** The email a Message-ID names: ours through the id it carries, one a caller set through its index. */
export function findEmailByMessageId(db: Db, projectId: string, messageId: string): Email | null {
  const own = OWN_MESSAGE_ID.exec(messageId)?.[1]?.toLowerCase();
  const byId = own ? findEmailById(db, projectId, own) : null;
  if (byId?.messageId === messageId) return byId;
  // the condition of the partial index emails_custom_message_id, repeated so that it is used
  const row = sql(db, `SELECT ${EMAIL_COLUMNS} FROM emails WHERE project_id = ? AND message_id = ? AND substr(message_id, 2, 36) <> id`).get(
    projectId,
    messageId,
  ) as EmailRow | undefined;
  return row ? toEmail(row) : null;
}

/** The emails sent from a template: one index entry each, millions for a busy one, so counted on a reader thread. */
export async function countEmailsOfTemplate(reader: Reader, read: ReadOptions, templateId: string): Promise<number> {
  return (await reader.get<{ n: number }>(read, 'SELECT COUNT(*) AS n FROM emails WHERE budget() AND project_id = ? AND template_id = ?', [read.projectId, templateId]))!.n;
}

// Delivery and feedback outcomes.

/**
 * Stored messages up to this size are read with their email; a larger one only once delivery has
 * room for it (see outbound/byte-budget.ts), so reading ahead never holds many large messages.
 */
export const READ_AHEAD_MESSAGE_BYTES = 256 * 1024;

/** A stored message and whether it carries its DKIM signature already (an earlier attempt signed it). */
export interface StoredMessage extends PackedMessage {
  signed: boolean;
}

/** An email with its stored message, as delivery reads it: one query. */
export interface StoredDelivery {
  email: Email;
  /** Null for a message larger than READ_AHEAD_MESSAGE_BYTES: read it with findStoredMessage. */
  message: StoredMessage | null;
  /** The message's size as stored (deflated or not). */
  storedSize: number;
}

type DeliveryRow = EmailRow & { raw: Buffer | null; stored_size: number; signed: number; deflated: number };

const DELIVERY_COLUMNS = `${EMAIL_COLUMNS}, CASE WHEN length(raw) <= ${READ_AHEAD_MESSAGE_BYTES} THEN raw END AS raw, length(raw) AS stored_size, signed, deflated`;

const toMessage = (row: { raw: Buffer; signed: number; deflated: number }): StoredMessage => ({ bytes: row.raw, deflated: row.deflated === 1, signed: row.signed === 1 });

const toDelivery = (row: DeliveryRow): StoredDelivery => ({
  email: toEmail(row),
  message: row.raw ? toMessage({ ...row, raw: row.raw }) : null,
  storedSize: row.stored_size,
});

export function findDelivery(db: Db, projectId: string, emailId: string): StoredDelivery | null {
  const row = sql(db, `SELECT ${DELIVERY_COLUMNS} FROM emails JOIN email_messages ON email_id = id WHERE project_id = ? AND id = ?`).get(projectId, emailId) as
    | DeliveryRow
    | undefined;
  return row ? toDelivery(row) : null;
}

export function findStoredMessage(db: Db, emailId: string): StoredMessage | null {
  const row = sql(db, 'SELECT raw, signed, deflated FROM email_messages WHERE email_id = ?').get(emailId) as { raw: Buffer; signed: number; deflated: number } | undefined;
  return row ? toMessage(row) : null;
}

/** Several of them at once, each named by its project and id; answers those found, by email id. */
export function findDeliveries(db: Db, wanted: { projectId: string; emailId: string }[]): Map<string, StoredDelivery> {
  const rows = sql(
    db,
    `WITH wanted AS (SELECT json_extract(value, '$.emailId') AS wanted_id, json_extract(value, '$.projectId') AS wanted_project FROM json_each(?))
     SELECT ${DELIVERY_COLUMNS} FROM wanted
     JOIN emails ON id = wanted_id AND project_id = wanted_project
     JOIN email_messages ON email_id = id`,
  ).all(JSON.stringify(wanted)) as DeliveryRow[];
  return new Map(rows.map((row) => [row.id, toDelivery(row)]));
}

/** The signed message replaces the unsigned one, so later attempts send the very same bytes. */
export function storeSigned(db: Db, emailId: string, raw: Buffer): void {
  const packed = packMessage(raw);
  sql(db, 'UPDATE email_messages SET raw = ?, deflated = ?, signed = 1 WHERE email_id = ?').run(packed.bytes, packed.deflated ? 1 : 0, emailId);
}

/** The email's status now (a snapshot read at claim time may be older). */
export function emailStatusOf(db: Db, emailId: string): EmailStatus | null {
  return (sql(db, 'SELECT status FROM emails WHERE id = ?').pluck().get(emailId) as EmailStatus | undefined) ?? null;
}

export function setEmailStatus(db: Db, emailId: string, status: EmailStatus, response: string | null, now: number): void {
  sql(db, 'UPDATE emails SET status = ?, last_response = coalesce(?, last_response), updated_at = ? WHERE id = ?').run(status, response, now, emailId);
}

/**
 * Answers how many times this email has now been deferred (the retry schedule's step), or null when
 * it reached a final state meanwhile (its campaign was cancelled): then it is not retried. An
 * uncounted deferral (a provider's throttling) records the answer without taking a step.
 */
export function markDeferred(db: Db, emailId: string, response: string, now: number, counted = true): number | null {
  const row = sql(
    db,
    `UPDATE emails SET status = 'deferred', last_response = ?, deferrals = deferrals + ?, updated_at = ?
     WHERE id = ? AND status NOT IN ('delivered', 'bounced', 'failed', 'suppressed') RETURNING deferrals`,
  ).get(response, counted ? 1 : 0, now, emailId) as { deferrals: number } | undefined;
  return row?.deferrals ?? null;
}

/** A bounce report that came first (a relay's, the simulator's) keeps its status. */
export function markDelivered(db: Db, emailId: string, response: string, now: number): void {
  sql(db, `UPDATE emails SET status = 'delivered', last_response = ?, delivered_at = ?, updated_at = ? WHERE id = ? AND bounced_at IS NULL`).run(response, now, now, emailId);
}

/** Answers false when the email already has a permanent bounce (a second report changes nothing). */
export function markBounced(db: Db, emailId: string, response: string | null, now: number): boolean {
  return (
    sql(
      db,
      `UPDATE emails SET status = 'bounced', last_response = coalesce(?, last_response), bounced_at = ?, updated_at = ?
       WHERE id = ? AND bounced_at IS NULL`,
    ).run(response, now, now, emailId).changes === 1
  );
}

/** Answers false when a complaint was already recorded for the email. */
export function markComplained(db: Db, emailId: string, now: number): boolean {
  return sql(db, 'UPDATE emails SET complained_at = ?, updated_at = ? WHERE id = ? AND complained_at IS NULL').run(now, now, emailId).changes === 1;
}

/** The contact unsubscribed through this email's links (first time only; a campaign counts it, 080_campaign_unsubscribes.sql). */
export function markUnsubscribed(db: Db, projectId: string, emailId: string, now: number): void {
  sql(db, 'UPDATE emails SET unsubscribed_at = ?, updated_at = ? WHERE project_id = ? AND id = ? AND unsubscribed_at IS NULL').run(now, now, projectId, emailId);
}

// Opens and clicks.
/** The project of an email named by a signed token (the token carries only the email id). */
export function projectOfEmail(db: Db, emailId: string): string | null {
  const row = sql(db, 'SELECT project_id FROM emails WHERE id = ?').get(emailId) as { project_id: string } | undefined;
  return row?.project_id ?? null;
}

/** Counts one open; answers the running total and whether it was the first. */
export function countOpen(db: Db, emailId: string, now: number): { opens: number; first: boolean } {
  const row = sql(
    db,
    `UPDATE emails SET opens = opens + 1, first_opened_at = coalesce(first_opened_at, ?), updated_at = ? WHERE id = ?
     RETURNING opens, first_opened_at`,
  ).get(now, now, emailId) as { opens: number; first_opened_at: number };
  return { opens: row.opens, first: row.opens === 1 };
}

export function countClick(db: Db, emailId: string, now: number): { clicks: number; first: boolean } {
  const row = sql(
    db,
    `UPDATE emails SET clicks = clicks + 1, first_clicked_at = coalesce(first_clicked_at, ?), updated_at = ? WHERE id = ?
     RETURNING clicks`,
  ).get(now, now, emailId) as { clicks: number };
  return { clicks: row.clicks, first: row.clicks === 1 };
}
