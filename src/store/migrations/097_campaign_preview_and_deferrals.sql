-- The campaign's preview text (the hidden preheader that inboxes show after the subject), and how
-- many of its emails wait for a retry now: the console's progress shows queued and deferred apart
-- from a counter, never a scan of the campaign's emails.
ALTER TABLE campaigns ADD COLUMN preview_text TEXT;
ALTER TABLE campaigns ADD COLUMN deferred_count INTEGER NOT NULL DEFAULT 0;

UPDATE campaigns SET deferred_count = (SELECT count(*) FROM emails e WHERE e.campaign_id = campaigns.id AND e.status = 'deferred')
WHERE status IN ('SENDING', 'SENT', 'CANCELLED');

-- An email enters or leaves the deferred state (a retry is due later; the retry, a final state or a cancel ends it).
CREATE TRIGGER campaign_email_deferral AFTER UPDATE OF status ON emails
WHEN NEW.campaign_id IS NOT NULL AND (NEW.status = 'deferred') != (OLD.status = 'deferred') BEGIN
  UPDATE campaigns SET deferred_count = deferred_count + (CASE WHEN NEW.status = 'deferred' THEN 1 ELSE -1 END) WHERE id = NEW.campaign_id;
END;
