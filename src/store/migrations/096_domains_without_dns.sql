-- Capture mode lets a domain be marked verified without DNS (POST /domains/{id}/mark-verified), so
-- that a newcomer sends within a minute; the mark says so, and a DNS check replaces it.
ALTER TABLE domains ADD COLUMN verified_without_dns INTEGER NOT NULL DEFAULT 0;
