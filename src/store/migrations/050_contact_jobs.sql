-- Import and bulk jobs as the API polls them (GET /contacts/import/{id}, /contacts/bulk/{id}). The work
-- runs as a durable `jobs` row naming this one; `position` (rows or ids done) is written in the
-- transaction of each batch, so a run after a crash continues exactly where the last commit left it.
CREATE TABLE contact_jobs (
  id           TEXT PRIMARY KEY,
  project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type         TEXT NOT NULL CHECK (type IN ('import', 'bulk-subscribe', 'bulk-unsubscribe', 'bulk-delete')),
  state        TEXT NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed')),
  progress     INTEGER NOT NULL DEFAULT 0,   -- percent
  input        TEXT NOT NULL,                -- import: {file, bytes}; bulk: {contactIds}
  position     INTEGER NOT NULL DEFAULT 0,   -- data rows (import) or ids (bulk) already committed
  result       TEXT NOT NULL,                -- running totals, final once completed
  error        TEXT,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  finished_at  INTEGER
);
-- The 7-day sweep.
CREATE INDEX contact_jobs_created ON contact_jobs(created_at);
