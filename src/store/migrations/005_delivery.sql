-- What delivery and feedback record on an email: the signed message, the last remote answer, outcome times.
ALTER TABLE email_messages ADD COLUMN signed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE emails ADD COLUMN last_response TEXT;
ALTER TABLE emails ADD COLUMN delivered_at INTEGER;
ALTER TABLE emails ADD COLUMN bounced_at INTEGER;
ALTER TABLE emails ADD COLUMN complained_at INTEGER;
ALTER TABLE emails ADD COLUMN deferrals INTEGER NOT NULL DEFAULT 0;
