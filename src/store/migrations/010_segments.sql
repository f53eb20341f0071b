-- Segments, their member rows, coalesced reactor jobs, and the indexes the filter engine asks.
CREATE TABLE segments (
  id                TEXT PRIMARY KEY,
  project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  slug              TEXT NOT NULL,           -- names its segment.<slug>.entry|exit events
  description       TEXT,
  type              TEXT NOT NULL CHECK (type IN ('DYNAMIC', 'STATIC')),
  condition         TEXT,                    -- FilterCondition JSON; null for STATIC
  track_membership  INTEGER NOT NULL DEFAULT 0,
  member_count      INTEGER NOT NULL DEFAULT 0,  -- cached, refreshed by the segments.count job
  counted_at        INTEGER,
  count_ms          INTEGER NOT NULL DEFAULT 0,  -- what the last count cost: spaces out recounts of large projects
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX segments_project ON segments(project_id, created_at, id);

-- The members of a STATIC segment, and the recorded membership of a tracked DYNAMIC one (what
-- entry and exit events are diffed against).
CREATE TABLE segment_members (
  segment_id  TEXT NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
  contact_id  TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  project_id  TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (segment_id, contact_id)
) WITHOUT ROWID;
CREATE INDEX segment_members_contact ON segment_members(contact_id, project_id);

-- A job with a coalesce key is not enqueued again while one with the key waits untouched: a burst
-- of changes to one contact makes one re-evaluation. Claiming counts an attempt, so the key is
-- free again from the moment the job starts (a change after that start gets its own job).
ALTER TABLE jobs ADD COLUMN coalesce_key TEXT;
CREATE UNIQUE INDEX jobs_coalesce ON jobs(coalesce_key) WHERE coalesce_key IS NOT NULL AND status = 'queued' AND attempts = 0;

-- Keyset walks of a project's contacts by id (campaign audiences, segment compute).
CREATE INDEX contacts_project_id ON contacts(project_id, id);

-- Event filters read both event indexes alone: per contact (pages, batches, one contact's facts)
-- the name joins the contact's index, per name (counts) the contact joins the name's index.
DROP INDEX events_contact;
CREATE INDEX events_contact ON events(contact_id, created_at, name);
DROP INDEX events_project_name;
CREATE INDEX events_project_name ON events(project_id, name, created_at, contact_id);
