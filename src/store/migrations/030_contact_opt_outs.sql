-- Unsubscribes the public key may not undo: made by the contact (link, one-click, mailto), a bounce
-- or a complaint. A row lives while the contact stays unsubscribed; any resubscribe removes it.
CREATE TABLE contact_opt_outs (
  contact_id  TEXT PRIMARY KEY REFERENCES contacts(id) ON DELETE CASCADE,
  project_id  TEXT NOT NULL,
  reason      TEXT NOT NULL CHECK (reason IN ('unsubscribe-link', 'bounce', 'complaint')),
  created_at  INTEGER NOT NULL
) WITHOUT ROWID;
