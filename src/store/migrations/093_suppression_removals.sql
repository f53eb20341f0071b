-- Every removal of a suppression, with who removed it, when and why: the suppression row is gone,
-- the reason for letting mail reach the address again is kept.
CREATE TABLE suppression_removals (
  id          INTEGER PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  email_lc    TEXT NOT NULL,
  reason      TEXT NOT NULL CHECK (reason IN ('bounce', 'complaint')),
  suppressed_at INTEGER NOT NULL,
  removed_by  TEXT NOT NULL,
  note        TEXT NOT NULL,
  removed_at  INTEGER NOT NULL
);
CREATE INDEX suppression_removals_project ON suppression_removals(project_id, id);

-- The suppressions page lists a project's newest first and filters by reason.
CREATE INDEX suppressions_project_time ON suppressions(project_id, created_at);
