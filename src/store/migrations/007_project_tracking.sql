-- Open and click tracking of TRANSACTIONAL mail is off unless the project turns it on.
ALTER TABLE projects ADD COLUMN track_transactional INTEGER NOT NULL DEFAULT 0;
