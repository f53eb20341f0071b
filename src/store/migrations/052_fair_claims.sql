-- Fair claims: the runner claims each kind's due jobs project by project, in rotation, so one
-- project's backlog never stands in front of another project's work. The index lists the projects
-- with queued jobs of a (status, kind, lane) by seeks, then each project's due jobs oldest first.
DROP INDEX jobs_due;
CREATE INDEX jobs_due ON jobs(status, kind, lane, project_id, run_at);
