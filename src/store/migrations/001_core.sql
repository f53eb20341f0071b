-- Projects, their hashed keys, contacts, the event log, the durable job queue and idempotency claims.
CREATE TABLE projects (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  disabled    INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);

CREATE TABLE api_keys (
  hash        TEXT PRIMARY KEY,          -- SHA-256 hex of the plain key; the plain key is never stored
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('public', 'secret')),
  created_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX api_keys_project ON api_keys(project_id);

CREATE TABLE contacts (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  email       TEXT NOT NULL,
  email_lc    TEXT NOT NULL,
  subscribed  INTEGER NOT NULL,
  data        TEXT NOT NULL DEFAULT '{}',
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX contacts_email ON contacts(project_id, email_lc);
-- Covers list filters (subscribed, email search) so only matching rows are read from the table.
CREATE INDEX contacts_created ON contacts(project_id, created_at, id, subscribed, email_lc);

-- Contact counts per project, kept by triggers so list totals never scan 100,000 rows.
CREATE TABLE contact_counts (
  project_id  TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  total       INTEGER NOT NULL DEFAULT 0,
  subscribed  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TRIGGER contact_counts_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contact_counts (project_id, total, subscribed) VALUES (NEW.project_id, 1, NEW.subscribed)
  ON CONFLICT (project_id) DO UPDATE SET total = total + 1, subscribed = subscribed + NEW.subscribed;
END;

CREATE TRIGGER contact_counts_delete AFTER DELETE ON contacts BEGIN
  UPDATE contact_counts SET total = total - 1, subscribed = subscribed - OLD.subscribed WHERE project_id = OLD.project_id;
END;

CREATE TRIGGER contact_counts_subscribed AFTER UPDATE OF subscribed ON contacts WHEN NEW.subscribed != OLD.subscribed BEGIN
  UPDATE contact_counts SET subscribed = subscribed + NEW.subscribed - OLD.subscribed WHERE project_id = NEW.project_id;
END;

CREATE TABLE events (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  contact_id  TEXT REFERENCES contacts(id) ON DELETE CASCADE,
  email_id    TEXT,
  name        TEXT NOT NULL,
  data        TEXT NOT NULL DEFAULT '{}',
  created_at  INTEGER NOT NULL
);
CREATE INDEX events_project_time ON events(project_id, created_at);
CREATE INDEX events_project_name ON events(project_id, name, created_at);
CREATE INDEX events_contact ON events(contact_id, created_at);

CREATE TABLE jobs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT NOT NULL,
  project_id    TEXT,
  payload       TEXT NOT NULL DEFAULT '{}',
  status        TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'failed')),
  run_at        INTEGER NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  max_attempts  INTEGER NOT NULL,
  locked_until  INTEGER,
  last_error    TEXT,
  unique_key    TEXT UNIQUE,              -- makes enqueueing idempotent where a caller needs that
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs(status, kind, run_at);

CREATE TABLE idempotency_keys (
  project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key          TEXT NOT NULL,
  request      TEXT NOT NULL,
  status_code  INTEGER,                   -- null while the first request is still running
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (project_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_created ON idempotency_keys(created_at);

-- Secrets generated into the store on first start (token signing key, ...).
CREATE TABLE settings (
  name   TEXT PRIMARY KEY,
  value  TEXT NOT NULL
) WITHOUT ROWID;
