-- The project's email outcomes per UTC day, kept by triggers so the overview's chart reads at most
-- 6 x 90 rows instead of counting millions of events. Metrics: sent, delivered, bounced (permanent
-- bounces only), complained, opened and clicked (an email's first open or first click). Other
-- events (tracked ones, contact events) only pay the trigger's WHEN test.
CREATE TABLE email_daily (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  day         INTEGER NOT NULL, -- days since 1970-01-01, UTC
  metric      TEXT NOT NULL,
  count       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, day, metric)
) WITHOUT ROWID;

-- The metric an event counts for, or NULL (a transient bounce, a repeated open or click). instr()
-- spares parsing the data of most events; the same expression serves the insert, the delete and
-- the backfill below.
CREATE TRIGGER email_daily_insert AFTER INSERT ON events
WHEN NEW.name IN ('email.sent', 'email.delivery', 'email.bounce', 'email.complaint', 'email.open', 'email.click') BEGIN
  INSERT INTO email_daily (project_id, day, metric, count)
  SELECT NEW.project_id, NEW.created_at / 86400000, metric, 1 FROM (
    SELECT CASE NEW.name
      WHEN 'email.sent' THEN 'sent'
      WHEN 'email.delivery' THEN 'delivered'
      WHEN 'email.complaint' THEN 'complained'
      WHEN 'email.bounce' THEN CASE WHEN instr(NEW.data, '"transientBounce"') = 0 THEN 'bounced' END
      WHEN 'email.open' THEN CASE WHEN instr(NEW.data, '"isFirstOpen"') > 0 AND json_extract(NEW.data, '$.isFirstOpen') IS 1 THEN 'opened' END
      WHEN 'email.click' THEN CASE WHEN instr(NEW.data, '"isFirstClick"') > 0 AND json_extract(NEW.data, '$.isFirstClick') IS 1 THEN 'clicked' END
    END AS metric
  ) WHERE metric IS NOT NULL
  ON CONFLICT (project_id, day, metric) DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER email_daily_delete AFTER DELETE ON events
WHEN OLD.name IN ('email.sent', 'email.delivery', 'email.bounce', 'email.complaint', 'email.open', 'email.click') BEGIN
  UPDATE email_daily SET count = count - 1
  WHERE project_id = OLD.project_id AND day = OLD.created_at / 86400000 AND metric = CASE OLD.name
    WHEN 'email.sent' THEN 'sent'
    WHEN 'email.delivery' THEN 'delivered'
    WHEN 'email.complaint' THEN 'complained'
    WHEN 'email.bounce' THEN CASE WHEN instr(OLD.data, '"transientBounce"') = 0 THEN 'bounced' END
    WHEN 'email.open' THEN CASE WHEN instr(OLD.data, '"isFirstOpen"') > 0 AND json_extract(OLD.data, '$.isFirstOpen') IS 1 THEN 'opened' END
    WHEN 'email.click' THEN CASE WHEN instr(OLD.data, '"isFirstClick"') > 0 AND json_extract(OLD.data, '$.isFirstClick') IS 1 THEN 'clicked' END
  END;
END;

INSERT INTO email_daily (project_id, day, metric, count)
SELECT project_id, day, metric, COUNT(*) FROM (
  SELECT project_id, created_at / 86400000 AS day, CASE name
    WHEN 'email.sent' THEN 'sent'
    WHEN 'email.delivery' THEN 'delivered'
    WHEN 'email.complaint' THEN 'complained'
    WHEN 'email.bounce' THEN CASE WHEN instr(data, '"transientBounce"') = 0 THEN 'bounced' END
    WHEN 'email.open' THEN CASE WHEN instr(data, '"isFirstOpen"') > 0 AND json_extract(data, '$.isFirstOpen') IS 1 THEN 'opened' END
    WHEN 'email.click' THEN CASE WHEN instr(data, '"isFirstClick"') > 0 AND json_extract(data, '$.isFirstClick') IS 1 THEN 'clicked' END
  END AS metric
  FROM events WHERE name IN ('email.sent', 'email.delivery', 'email.bounce', 'email.complaint', 'email.open', 'email.click')
) WHERE metric IS NOT NULL GROUP BY project_id, day, metric;
