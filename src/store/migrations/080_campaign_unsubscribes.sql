-- Unsubscribes that came from an email (its link, one-click, manage page or mailto fallback): the
-- email keeps when, and a campaign counts its emails' unsubscribes once each, as it counts bounces.
-- Unsubscribes before this version named no email and are not counted.
ALTER TABLE emails ADD COLUMN unsubscribed_at INTEGER;
ALTER TABLE campaigns ADD COLUMN unsubscribed_count INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER campaign_email_unsubscribed AFTER UPDATE OF unsubscribed_at ON emails
WHEN NEW.campaign_id IS NOT NULL AND OLD.unsubscribed_at IS NULL AND NEW.unsubscribed_at IS NOT NULL BEGIN
  UPDATE campaigns SET unsubscribed_count = unsubscribed_count + 1 WHERE id = NEW.campaign_id;
END;
