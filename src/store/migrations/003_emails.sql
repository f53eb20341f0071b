-- Email records (one per recipient of a send) and the raw message composed at acceptance.
CREATE TABLE emails (
  id                TEXT PRIMARY KEY,
  project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  contact_id        TEXT REFERENCES contacts(id) ON DELETE SET NULL,
  template_id       TEXT,                     -- kept when the template is deleted: the record is history
  campaign_id       TEXT,
  source_type       TEXT NOT NULL CHECK (source_type IN ('TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW', 'INBOUND')),
  message_type      TEXT NOT NULL CHECK (message_type IN ('TRANSACTIONAL', 'MARKETING', 'HEADLESS')),
  to_email          TEXT NOT NULL,            -- the envelope recipient
  from_email        TEXT NOT NULL,
  from_name         TEXT,
  reply_to          TEXT,
  subject           TEXT NOT NULL,
  sender_domain     TEXT NOT NULL,            -- the verified domain covering the sender: names the VERP bounce domain
  message_id        TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'deferred', 'bounced', 'failed', 'suppressed')),
  opens             INTEGER NOT NULL DEFAULT 0,
  clicks            INTEGER NOT NULL DEFAULT 0,
  first_opened_at   INTEGER,
  first_clicked_at  INTEGER,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX emails_project_time ON emails(project_id, created_at);
CREATE INDEX emails_contact ON emails(contact_id);
CREATE INDEX emails_template ON emails(project_id, template_id);
CREATE INDEX emails_campaign ON emails(campaign_id) WHERE campaign_id IS NOT NULL;
-- Bounces and complaints that quote only the Message-ID are matched through it.
CREATE INDEX emails_message_id ON emails(message_id);

-- Apart from the record so that lists and counters never page message bodies in.
CREATE TABLE email_messages (
  email_id  TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE,
  raw       BLOB NOT NULL
);
