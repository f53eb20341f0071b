-- Messages stored from now on are deflated (emails/packing.ts); older rows stay as they are.
ALTER TABLE email_messages ADD COLUMN deflated INTEGER NOT NULL DEFAULT 0;
