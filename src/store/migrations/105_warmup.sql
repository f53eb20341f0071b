-- Warm-up (delivery.warmup): deliveries started per sender domain and UTC day, so that a restart
-- keeps the day's count. The first day of a domain's warm-up is its first day in sender_daily.
CREATE TABLE warmup_days (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  domain      TEXT NOT NULL,
  day         INTEGER NOT NULL, -- days since 1970-01-01, UTC
  sent        INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, domain, day)
) WITHOUT ROWID;
