-- A project's media library (SQLite's 109_media.sql): images kept in the store, served from the
-- public host at /media/<id>.<ext>; `bytes` last, as there.
CREATE TABLE media (
  id          text COLLATE "C" PRIMARY KEY,
  project_id  text COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name        text COLLATE "C" NOT NULL,
  type        text COLLATE "C" NOT NULL,
  size        bigint NOT NULL,
  width       bigint NOT NULL,
  height      bigint NOT NULL,
  created_at  bigint NOT NULL,
  bytes       bytea NOT NULL
);
CREATE INDEX media_by_project ON media(project_id, created_at, id);
