-- A project's media library: images uploaded for its emails, kept in the store (so every node of a
-- cluster serves them) and served from the public host at /media/<id>.<ext>. The id is random
-- (128 bits): the public address names no project and cannot be guessed from another one.
-- `bytes` comes last: a list reads the columns before it without walking the blob's pages.
CREATE TABLE media (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  type        TEXT NOT NULL,
  size        INTEGER NOT NULL,
  width       INTEGER NOT NULL,
  height      INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  bytes       BLOB NOT NULL
);
CREATE INDEX media_by_project ON media(project_id, created_at, id);
