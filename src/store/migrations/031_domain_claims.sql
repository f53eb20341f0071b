-- Registering a domain is a claim, ownership is proved: any project may hold a name as pending, one
-- project at most holds it verified (the first to prove it in DNS). verified_at: the first
-- verification, null for claims never proved (those expire after 7 days).
CREATE TABLE domains_claims (
  id               TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  domain           TEXT NOT NULL,            -- lower-case ASCII (punycode)
  selector         TEXT NOT NULL,
  public_key       TEXT NOT NULL,            -- base64 DER SubjectPublicKeyInfo: the p= of the DKIM record
  private_key      TEXT NOT NULL,            -- PKCS#8 PEM; never leaves the store through the API
  status           TEXT NOT NULL CHECK (status IN ('pending', 'verified')),
  checks           TEXT NOT NULL DEFAULT '{}', -- verified flag per record purpose from the last check
  failure_reason   TEXT,
  last_checked_at  INTEGER,
  verified_at      INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  UNIQUE (project_id, domain)
);
INSERT INTO domains_claims (id, project_id, domain, selector, public_key, private_key, status, checks, failure_reason, last_checked_at, verified_at, created_at, updated_at)
  SELECT id, project_id, domain, selector, public_key, private_key, status, checks, failure_reason, last_checked_at,
         CASE WHEN status = 'verified' THEN COALESCE(last_checked_at, updated_at) END, created_at, updated_at
  FROM domains;
DROP TABLE domains;
ALTER TABLE domains_claims RENAME TO domains;
CREATE INDEX domains_project ON domains(project_id, created_at);
CREATE INDEX domains_name ON domains(domain);
CREATE UNIQUE INDEX domains_verified_owner ON domains(domain) WHERE status = 'verified';
