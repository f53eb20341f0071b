-- Campaigns, their recipients (one row per campaign and contact: nobody gets a campaign twice) and
-- counters that follow the email events of each recipient through triggers, never a scan on read.
CREATE TABLE campaigns (
  id                  TEXT PRIMARY KEY,
  project_id          TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  description         TEXT,
  subject             TEXT NOT NULL,
  body                TEXT NOT NULL,
  from_email          TEXT NOT NULL,
  from_name           TEXT,
  reply_to            TEXT,
  type                TEXT NOT NULL CHECK (type IN ('TRANSACTIONAL', 'MARKETING', 'HEADLESS')),
  status              TEXT NOT NULL CHECK (status IN ('DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED')),
  audience_type       TEXT NOT NULL CHECK (audience_type IN ('ALL', 'SEGMENT', 'FILTERED')),
  audience_condition  TEXT,                       -- FilterCondition JSON (FILTERED)
  segment_id          TEXT,                       -- SEGMENT
  scheduled_for       INTEGER,
  sent_at             INTEGER,
  send_round          INTEGER NOT NULL DEFAULT 0, -- every send or schedule starts a round: fan-out jobs of older rounds do nothing
  walk_after          TEXT,                       -- the fan-out walk's position: the last contact id it passed
  walked              INTEGER NOT NULL DEFAULT 0, -- the whole audience has been walked
  pending             INTEGER NOT NULL DEFAULT 0, -- emails queued and not yet in a final state
  total_recipients    INTEGER NOT NULL DEFAULT 0,
  sent_count          INTEGER NOT NULL DEFAULT 0,
  delivered_count     INTEGER NOT NULL DEFAULT 0,
  opened_count        INTEGER NOT NULL DEFAULT 0,
  clicked_count       INTEGER NOT NULL DEFAULT 0,
  bounced_count       INTEGER NOT NULL DEFAULT 0,
  complained_count    INTEGER NOT NULL DEFAULT 0,
  suppressed_count    INTEGER NOT NULL DEFAULT 0, -- audience members skipped because their address is suppressed
  search_lc           TEXT NOT NULL,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);
CREATE INDEX campaigns_project ON campaigns(project_id, created_at);

CREATE TABLE campaign_recipients (
  campaign_id  TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  contact_id   TEXT NOT NULL,
  email_id     TEXT,                              -- null for a suppressed address (skipped)
  PRIMARY KEY (campaign_id, contact_id)
) WITHOUT ROWID;

CREATE TRIGGER campaign_email_sent AFTER INSERT ON emails WHEN NEW.campaign_id IS NOT NULL BEGIN
  UPDATE campaigns SET sent_count = sent_count + 1, pending = pending + 1 WHERE id = NEW.campaign_id;
END;

-- A final state ends the email's part of the send; the last one turns a fully walked campaign SENT.
-- (In SET, `pending` is the value before this update.)
CREATE TRIGGER campaign_email_final AFTER UPDATE OF status ON emails
WHEN NEW.campaign_id IS NOT NULL
  AND NEW.status IN ('delivered', 'bounced', 'failed', 'suppressed')
  AND OLD.status NOT IN ('delivered', 'bounced', 'failed', 'suppressed')
BEGIN
  UPDATE campaigns SET
    pending = pending - 1,
    delivered_count = delivered_count + (NEW.status = 'delivered'),
    status = CASE WHEN status = 'SENDING' AND walked = 1 AND pending = 1 THEN 'SENT' ELSE status END
  WHERE id = NEW.campaign_id;
END;

CREATE TRIGGER campaign_email_bounced AFTER UPDATE OF bounced_at ON emails
WHEN NEW.campaign_id IS NOT NULL AND OLD.bounced_at IS NULL AND NEW.bounced_at IS NOT NULL BEGIN
  UPDATE campaigns SET bounced_count = bounced_count + 1 WHERE id = NEW.campaign_id;
END;

CREATE TRIGGER campaign_email_opened AFTER UPDATE OF first_opened_at ON emails
WHEN NEW.campaign_id IS NOT NULL AND OLD.first_opened_at IS NULL AND NEW.first_opened_at IS NOT NULL BEGIN
  UPDATE campaigns SET opened_count = opened_count + 1 WHERE id = NEW.campaign_id;
END;

CREATE TRIGGER campaign_email_clicked AFTER UPDATE OF first_clicked_at ON emails
WHEN NEW.campaign_id IS NOT NULL AND OLD.first_clicked_at IS NULL AND NEW.first_clicked_at IS NOT NULL BEGIN
  UPDATE campaigns SET clicked_count = clicked_count + 1 WHERE id = NEW.campaign_id;
END;

CREATE TRIGGER campaign_email_complained AFTER UPDATE OF complained_at ON emails
WHEN NEW.campaign_id IS NOT NULL AND OLD.complained_at IS NULL AND NEW.complained_at IS NOT NULL BEGIN
  UPDATE campaigns SET complained_count = complained_count + 1 WHERE id = NEW.campaign_id;
END;
