-- Mail received on the SMTP listener, stored before the 250 and processed by the `inbound.process` job.
CREATE TABLE inbound_messages (
  id              TEXT PRIMARY KEY,
  project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  mail_from       TEXT NOT NULL,            -- '' for the null sender of bounces
  rcpt_to         TEXT NOT NULL,            -- JSON array of the accepted recipients
  remote_ip       TEXT NOT NULL,
  helo            TEXT NOT NULL,
  raw             BLOB NOT NULL,
  classification  TEXT,                     -- bounce, complaint, auto-reply, received; null until processed
  email_id        TEXT,                     -- the email the report was about, or the INBOUND record
  created_at      INTEGER NOT NULL,
  processed_at    INTEGER
);
CREATE INDEX inbound_project_time ON inbound_messages(project_id, created_at);
