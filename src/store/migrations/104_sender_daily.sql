-- A sender domain's emails per UTC day of their sending, kept by triggers on emails: sent, and of
-- those, bounced (permanently) and complained. Sender health (bounce and complaint rates over 7 and
-- 30 days) and the first day of warm-up read a few rows here instead of counting emails. Counted by
-- the day an email was sent (its cohort), so a rate compares like with like. The simulator's
-- addresses never count (their outcomes are made up), nor do suppressed emails (never sent).
CREATE TABLE sender_daily (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  domain      TEXT NOT NULL,
  day         INTEGER NOT NULL, -- days since 1970-01-01, UTC
  metric      TEXT NOT NULL CHECK (metric IN ('sent', 'bounced', 'complained')),
  count       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, domain, day, metric)
) WITHOUT ROWID;
-- /metrics reads every domain's last 30 days.
CREATE INDEX sender_daily_day ON sender_daily(day);

CREATE TRIGGER sender_daily_sent AFTER INSERT ON emails
WHEN NEW.status <> 'suppressed' AND NEW.source_type <> 'INBOUND' AND NEW.to_email NOT LIKE '%@simulator.postmill.invalid' BEGIN
  INSERT INTO sender_daily (project_id, domain, day, metric, count) VALUES (NEW.project_id, NEW.sender_domain, NEW.created_at / 86400000, 'sent', 1)
  ON CONFLICT (project_id, domain, day, metric) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER sender_daily_bounced AFTER UPDATE OF bounced_at ON emails
WHEN OLD.bounced_at IS NULL AND NEW.bounced_at IS NOT NULL AND NEW.source_type <> 'INBOUND' AND NEW.to_email NOT LIKE '%@simulator.postmill.invalid' BEGIN
  INSERT INTO sender_daily (project_id, domain, day, metric, count) VALUES (NEW.project_id, NEW.sender_domain, NEW.created_at / 86400000, 'bounced', 1)
  ON CONFLICT (project_id, domain, day, metric) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER sender_daily_complained AFTER UPDATE OF complained_at ON emails
WHEN OLD.complained_at IS NULL AND NEW.complained_at IS NOT NULL AND NEW.source_type <> 'INBOUND' AND NEW.to_email NOT LIKE '%@simulator.postmill.invalid' BEGIN
  INSERT INTO sender_daily (project_id, domain, day, metric, count) VALUES (NEW.project_id, NEW.sender_domain, NEW.created_at / 86400000, 'complained', 1)
  ON CONFLICT (project_id, domain, day, metric) DO UPDATE SET count = count + 1;
END;

INSERT INTO sender_daily (project_id, domain, day, metric, count)
SELECT project_id, sender_domain, created_at / 86400000 AS day, metric, COUNT(*) FROM (
  SELECT project_id, sender_domain, created_at, 'sent' AS metric FROM emails WHERE status <> 'suppressed'
    AND source_type <> 'INBOUND' AND to_email NOT LIKE '%@simulator.postmill.invalid'
  UNION ALL
  SELECT project_id, sender_domain, created_at, 'bounced' FROM emails WHERE bounced_at IS NOT NULL
    AND source_type <> 'INBOUND' AND to_email NOT LIKE '%@simulator.postmill.invalid'
  UNION ALL
  SELECT project_id, sender_domain, created_at, 'complained' FROM emails WHERE complained_at IS NOT NULL
    AND source_type <> 'INBOUND' AND to_email NOT LIKE '%@simulator.postmill.invalid'
) GROUP BY project_id, sender_domain, day, metric;
