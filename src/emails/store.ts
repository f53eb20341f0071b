import { sql, type Db } from '../store/db.js';

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

interface EmailRow {
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

const EMAIL_COLUMNS =
  'id, project_id, contact_id, template_id, campaign_id, source_type, message_type, to_email, from_email, from_name, reply_to, subject, ' +
  'sender_domain, message_id, status, opens, clicks, first_opened_at, first_clicked_at, created_at, updated_at';

const toEmail = (r: EmailRow): Email => ({
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

/** Stores the record and its raw message together; call inside the transaction of the send. */
export function insertEmail(db: Db, e: Email, raw: Buffer): void {
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
  sql(db, 'INSERT INTO email_messages (email_id, raw) VALUES (?, ?)').run(e.id, raw);
}

export function findEmailById(db: Db, projectId: string, id: string): Email | null {
  const row = sql(db, `SELECT ${EMAIL_COLUMNS} FROM emails WHERE project_id = ? AND id = ?`).get(projectId, id) as EmailRow | undefined;
  return row ? toEmail(row) : null;
}

/** The message as composed at acceptance (not yet DKIM-signed). */
export function findRawMessage(db: Db, projectId: string, emailId: string): Buffer | null {
  const row = sql(
    db,
    'SELECT m.raw AS raw FROM email_messages m JOIN emails e ON e.id = m.email_id WHERE e.project_id = ? AND m.email_id = ?',
  ).get(projectId, emailId) as { raw: Buffer } | undefined;
  return row ? row.raw : null;
}

export function countEmailsOfTemplate(db: Db, projectId: string, templateId: string): number {
  return (sql(db, 'SELECT COUNT(*) AS n FROM emails WHERE project_id = ? AND template_id = ?').get(projectId, templateId) as { n: number }).n;
}
