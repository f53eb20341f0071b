import { parseJson, sql, type Db } from '../store/db.js';

export interface InboundMessage {
  id: string;
  projectId: string;
  mailFrom: string;
  rcptTo: string[];
  remoteIp: string;
  helo: string;
  raw: Buffer;
  createdAt: number;
  processedAt: number | null;
}

/** Where an outbound email went from: its project and the sender domain of its VERP return path. */
export function outboundOrigin(db: Db, emailId: string): { projectId: string; senderDomain: string } | null {
  const row = sql(db, "SELECT project_id, sender_domain FROM emails WHERE id = ? AND source_type != 'INBOUND'").get(emailId) as
    | { project_id: string; sender_domain: string }
    | undefined;
  return row ? { projectId: row.project_id, senderDomain: row.sender_domain } : null;
}

export function insertInbound(db: Db, m: InboundMessage): void {
  sql(
    db,
    'INSERT INTO inbound_messages (id, project_id, mail_from, rcpt_to, remote_ip, helo, raw, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(m.id, m.projectId, m.mailFrom, JSON.stringify(m.rcptTo), m.remoteIp, m.helo, m.raw, m.createdAt);
}

export function findInbound(db: Db, id: string): InboundMessage | null {
  const row = sql(db, 'SELECT * FROM inbound_messages WHERE id = ?').get(id) as
    | { id: string; project_id: string; mail_from: string; rcpt_to: string; remote_ip: string; helo: string; raw: Buffer; created_at: number; processed_at: number | null }
    | undefined;
  if (!row) return null;
  return {
    id: row.id,
    projectId: row.project_id,
    mailFrom: row.mail_from,
    rcptTo: parseJson<string[]>(row.rcpt_to, []),
    remoteIp: row.remote_ip,
    helo: row.helo,
    raw: row.raw,
    createdAt: row.created_at,
    processedAt: row.processed_at,
  };
}

export function markProcessed(db: Db, id: string, classification: string, emailId: string | null, now: number, opts: { dropRaw?: boolean } = {}): void {
  sql(
    db,
    `UPDATE inbound_messages SET classification = ?, email_id = ?, processed_at = ?, raw = CASE WHEN ? THEN x'' ELSE raw END WHERE id = ?`,
  ).run(classification, emailId, now, opts.dropRaw ? 1 : 0, id);
}
