-- DKIM keys apart from their domain, so that a domain can hold several: the key it signs with
-- (active), a new one waiting to be seen in DNS (pending), and old ones kept published for a while
-- after a rotation (retiring: retired_at says since when), for RSA and for Ed25519 (RFC 8463).
CREATE TABLE domain_keys (
  domain_id     TEXT NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  selector      TEXT NOT NULL,
  algorithm     TEXT NOT NULL CHECK (algorithm IN ('rsa', 'ed25519')),
  public_key    TEXT NOT NULL,            -- the p= of the DKIM record: base64 DER SubjectPublicKeyInfo (rsa), the raw 32 bytes (ed25519)
  private_key   TEXT NOT NULL,            -- PKCS#8 PEM; never leaves the store through the API
  state         TEXT NOT NULL CHECK (state IN ('pending', 'active', 'retiring')),
  published     INTEGER,                  -- what the last check found: 1 published, 0 not, null not looked up yet
  created_at    INTEGER NOT NULL,
  activated_at  INTEGER,
  retired_at    INTEGER,
  PRIMARY KEY (domain_id, selector)
) WITHOUT ROWID;
CREATE UNIQUE INDEX domain_keys_one_active ON domain_keys(domain_id, algorithm) WHERE state = 'active';
CREATE UNIQUE INDEX domain_keys_one_pending ON domain_keys(domain_id, algorithm) WHERE state = 'pending';
-- each domain's one key signs on; it has signed since the domain was first verified (a scheduled rotation counts from then)
INSERT INTO domain_keys (domain_id, selector, algorithm, public_key, private_key, state, published, created_at, activated_at)
  SELECT id, selector, 'rsa', public_key, private_key, 'active', json_extract(checks, '$.dkim'), created_at, COALESCE(verified_at, created_at) FROM domains;
ALTER TABLE domains DROP COLUMN selector;
ALTER TABLE domains DROP COLUMN public_key;
ALTER TABLE domains DROP COLUMN private_key;
