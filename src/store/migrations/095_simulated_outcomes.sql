-- The simulator's bounces and complaints ("simulated": true in their data) never count in the
-- project's rates: the daily counts skip them (090_email_daily.sql otherwise).
DROP TRIGGER email_daily_insert;
DROP TRIGGER email_daily_delete;

CREATE TRIGGER email_daily_insert AFTER INSERT ON events
WHEN NEW.name IN ('email.sent', 'email.delivery', 'email.bounce', 'email.complaint', 'email.open', 'email.click') BEGIN
  INSERT INTO email_daily (project_id, day, metric, count)
  SELECT NEW.project_id, NEW.created_at / 86400000, metric, 1 FROM (
    SELECT CASE NEW.name
      WHEN 'email.sent' THEN 'sent'
      WHEN 'email.delivery' THEN 'delivered'
      WHEN 'email.complaint' THEN CASE WHEN instr(NEW.data, '"simulated"') = 0 THEN 'complained' END
      WHEN 'email.bounce' THEN CASE WHEN instr(NEW.data, '"transientBounce"') = 0 AND instr(NEW.data, '"simulated"') = 0 THEN 'bounced' END
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
    WHEN 'email.complaint' THEN CASE WHEN instr(OLD.data, '"simulated"') = 0 THEN 'complained' END
    WHEN 'email.bounce' THEN CASE WHEN instr(OLD.data, '"transientBounce"') = 0 AND instr(OLD.data, '"simulated"') = 0 THEN 'bounced' END
    WHEN 'email.open' THEN CASE WHEN instr(OLD.data, '"isFirstOpen"') > 0 AND json_extract(OLD.data, '$.isFirstOpen') IS 1 THEN 'opened' END
    WHEN 'email.click' THEN CASE WHEN instr(OLD.data, '"isFirstClick"') > 0 AND json_extract(OLD.data, '$.isFirstClick') IS 1 THEN 'clicked' END
  END;
END;
