-- Emails still on their way (queued, being sent, deferred), per project: the overview's queue
-- depth counts this small partial index instead of a project's every email. An email enters it
-- once when queued and leaves it once when it ends.
CREATE INDEX emails_pending ON emails(project_id, status) WHERE status IN ('queued', 'sending', 'deferred');
