-- The latest result of each check the daemon runs by itself (the outbound SMTP check of the
-- doctor, daily and at every start), for the overview's alerts. Daemon-wide: port 25 is the machine's.
CREATE TABLE doctor_results (
  name        TEXT PRIMARY KEY,
  ok          INTEGER NOT NULL,
  detail      TEXT NOT NULL,
  fix         TEXT,
  checked_at  INTEGER NOT NULL
) WITHOUT ROWID;
