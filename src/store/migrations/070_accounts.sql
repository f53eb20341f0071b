-- People of the console: users with a password, their roles in projects, their sessions and the
-- one-time links that set a password (setup, invitation, reset, the first owner of a new store).
CREATE TABLE users (
  id             TEXT PRIMARY KEY,
  email          TEXT NOT NULL,
  email_lc       TEXT NOT NULL UNIQUE,      -- emails are unique ignoring case
  password_hash  TEXT,                      -- scrypt, self-describing; null until a setup link is used
  disabled       INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);

CREATE TABLE memberships (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (project_id, user_id)
) WITHOUT ROWID;
CREATE INDEX memberships_user ON memberships(user_id);

CREATE TABLE sessions (
  hash          TEXT PRIMARY KEY,           -- SHA-256 hex of the cookie's value; the value is never stored
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token    TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,           -- idle expiry counts from here
  expires_at    INTEGER NOT NULL            -- absolute expiry
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE setup_links (
  hash        TEXT PRIMARY KEY,             -- SHA-256 hex of the link's token
  purpose     TEXT NOT NULL CHECK (purpose IN ('setup', 'invite', 'reset', 'owner')),
  user_id     TEXT REFERENCES users(id) ON DELETE CASCADE,       -- null for 'owner': the user is made when it is used
  project_id  TEXT REFERENCES projects(id) ON DELETE CASCADE,    -- 'owner': the project the new user will own
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  CHECK ((purpose = 'owner') = (user_id IS NULL AND project_id IS NOT NULL))
) WITHOUT ROWID;
CREATE INDEX setup_links_user ON setup_links(user_id);
