-- Addresses that hard-bounced or complained: campaigns and workflows never mail them again
-- (transactional mail still goes).
CREATE TABLE suppressions (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  email_lc    TEXT NOT NULL,
  reason      TEXT NOT NULL CHECK (reason IN ('bounce', 'complaint')),
  email_id    TEXT,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (project_id, email_lc)
) WITHOUT ROWID;
