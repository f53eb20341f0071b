-- Live counts per workflow step (GET /workflows/{id}/step-counts).
--
-- Passed and failed: the step runs that completed or failed at each step, kept by triggers, so the
-- canvas reads one row per step however many executions ran (counting workflow_step_runs, which
-- keeps every run of every execution, grows with history). A WAITING run counts once it ends.
CREATE TABLE workflow_step_counts (
  step_id  TEXT PRIMARY KEY,
  passed   INTEGER NOT NULL DEFAULT 0,
  failed   INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TRIGGER workflow_step_counts_insert AFTER INSERT ON workflow_step_runs WHEN NEW.status <> 'WAITING' BEGIN
  INSERT INTO workflow_step_counts (step_id, passed, failed) VALUES (NEW.step_id, NEW.status = 'COMPLETED', NEW.status = 'FAILED')
  ON CONFLICT (step_id) DO UPDATE SET passed = passed + excluded.passed, failed = failed + excluded.failed;
END;

-- a WAITING run that ends (the upsert of insertStepRun updates it)
CREATE TRIGGER workflow_step_counts_update AFTER UPDATE OF status ON workflow_step_runs WHEN OLD.status IS NOT NEW.status BEGIN
  INSERT INTO workflow_step_counts (step_id, passed, failed)
  VALUES (NEW.step_id, (NEW.status = 'COMPLETED') - (OLD.status = 'COMPLETED'), (NEW.status = 'FAILED') - (OLD.status = 'FAILED'))
  ON CONFLICT (step_id) DO UPDATE SET passed = passed + excluded.passed, failed = failed + excluded.failed;
END;

-- runs leave with their execution (a deleted contact or workflow)
CREATE TRIGGER workflow_step_counts_delete AFTER DELETE ON workflow_step_runs WHEN OLD.status <> 'WAITING' BEGIN
  UPDATE workflow_step_counts SET passed = passed - (OLD.status = 'COMPLETED'), failed = failed - (OLD.status = 'FAILED') WHERE step_id = OLD.step_id;
END;

CREATE TRIGGER workflow_step_counts_step_gone AFTER DELETE ON workflow_steps BEGIN
  DELETE FROM workflow_step_counts WHERE step_id = OLD.id;
END;

INSERT INTO workflow_step_counts (step_id, passed, failed)
  SELECT r.step_id, SUM(r.status = 'COMPLETED'), SUM(r.status = 'FAILED') FROM workflow_step_runs r
  WHERE r.status <> 'WAITING' AND EXISTS (SELECT 1 FROM workflow_steps s WHERE s.id = r.step_id) GROUP BY r.step_id;

-- At each step now: the running and waiting executions, counted in their own small index without
-- reading the table (it holds the project scope and the status the count tests, so it covers the read).
CREATE INDEX workflow_executions_at_step ON workflow_executions(workflow_id, current_step_id, project_id, status) WHERE status IN ('RUNNING', 'WAITING');
