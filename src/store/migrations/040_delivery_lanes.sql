-- Delivery lanes: a job's lane (0 transactional, 1 bulk) orders its claim. Claims and the next-due
-- lookup ask one (status, kind, lane) at a time, each an exact range of this index.
ALTER TABLE jobs ADD COLUMN lane INTEGER NOT NULL DEFAULT 0;
DROP INDEX jobs_due;
CREATE INDEX jobs_due ON jobs(status, kind, lane, run_at);
