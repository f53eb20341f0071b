-- The email log (GET /emails): a project's emails newest first, ties by id; a campaign's likewise.
DROP INDEX emails_project_time;
CREATE INDEX emails_log ON emails(project_id, created_at, id);
DROP INDEX emails_campaign;
CREATE INDEX emails_campaign ON emails(campaign_id, created_at, id) WHERE campaign_id IS NOT NULL;

-- One email's timeline (GET /emails/{id}). Email ids are time-ordered (UUIDv7), so the entries of
-- new mail land at the index's end.
CREATE INDEX events_email ON events(email_id) WHERE email_id IS NOT NULL;

-- Every attempt to hand an email to a server: when, to which server, over TLS or not, what it
-- answered and what became of the email.
CREATE TABLE email_attempts (
  email_id  TEXT NOT NULL REFERENCES emails(id) ON DELETE CASCADE,
  at        INTEGER NOT NULL,
  mx        TEXT,                       -- `name[address]` of an MX host, `host:port` of the relay, `capture`, `simulator`; null when none was reached
  tls       TEXT,                       -- the session's protocol (TLSv1.3), null when plain
  reply     TEXT NOT NULL,
  outcome   TEXT NOT NULL CHECK (outcome IN ('delivered', 'deferred', 'bounced'))
);
CREATE INDEX email_attempts_email ON email_attempts(email_id, at);

-- Capture mode (delivery.mode capture): the email went no further than the store. What would have
-- gone out is its stored message behind the DKIM-Signature header kept here (null: sent unsigned,
-- or the stored message is already the signed one).
CREATE TABLE email_captures (
  email_id     TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE,
  signature    BLOB,
  captured_at  INTEGER NOT NULL
);
