-- Sender domains with their DKIM keys, and templates.
CREATE TABLE domains (
  id               TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  domain           TEXT NOT NULL UNIQUE,     -- lower-case ASCII (punycode); one project per domain
  selector         TEXT NOT NULL,
  public_key       TEXT NOT NULL,            -- base64 DER SubjectPublicKeyInfo: the p= of the DKIM record
  private_key      TEXT NOT NULL,            -- PKCS#8 PEM; never leaves the store through the API
  status           TEXT NOT NULL CHECK (status IN ('pending', 'verified')),
  checks           TEXT NOT NULL DEFAULT '{}', -- verified flag per record purpose from the last check
  failure_reason   TEXT,
  last_checked_at  INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX domains_project ON domains(project_id, created_at);

CREATE TABLE templates (
  id           TEXT PRIMARY KEY,
  project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  description  TEXT,
  subject      TEXT NOT NULL,
  body         TEXT NOT NULL,
  from_email   TEXT NOT NULL,
  from_name    TEXT,
  reply_to     TEXT,
  type         TEXT NOT NULL CHECK (type IN ('TRANSACTIONAL', 'MARKETING', 'HEADLESS')),
  search_lc    TEXT NOT NULL,                -- name, description and subject lower-cased for search
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX templates_project_created ON templates(project_id, created_at, id);
