-- A project may sign with Ed25519 (RFC 8463) beside RSA: each of its domains then gets an Ed25519 key.
ALTER TABLE projects ADD COLUMN dkim_ed25519 INTEGER NOT NULL DEFAULT 0;
