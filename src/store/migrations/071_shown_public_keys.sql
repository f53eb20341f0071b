-- The public key itself, so the console can show it again: it is published in web pages anyway
-- (POST /v1/track) and can only track events. Secret keys stay SHA-256 hashes only. Keys made
-- before this migration have none until the project's keys are rotated.
ALTER TABLE api_keys ADD COLUMN shown TEXT;
