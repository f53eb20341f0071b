-- Workflows: a graph of steps started by an event (or by hand), run per contact as executions.
CREATE TABLE workflows (
  id             TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  description    TEXT,
  trigger_type   TEXT NOT NULL CHECK (trigger_type IN ('EVENT', 'MANUAL')),
  event_name     TEXT,                         -- the trigger event (triggerConfig.eventName)
  enabled        INTEGER NOT NULL DEFAULT 0,
  allow_reentry  INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);
CREATE INDEX workflows_project ON workflows(project_id, created_at);

CREATE TABLE workflow_steps (
  id           TEXT PRIMARY KEY,
  workflow_id  TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  type         TEXT NOT NULL CHECK (type IN ('TRIGGER', 'SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT')),
  name         TEXT NOT NULL,
  position_x   REAL NOT NULL DEFAULT 0,
  position_y   REAL NOT NULL DEFAULT 0,
  config       TEXT NOT NULL DEFAULT '{}',
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX workflow_steps_workflow ON workflow_steps(workflow_id, created_at);

CREATE TABLE workflow_transitions (
  id            TEXT PRIMARY KEY,
  workflow_id   TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  from_step_id  TEXT NOT NULL REFERENCES workflow_steps(id) ON DELETE CASCADE,
  to_step_id    TEXT NOT NULL REFERENCES workflow_steps(id) ON DELETE CASCADE,
  branch        TEXT,                          -- yes/no (CONDITION), event/timeout (WAIT_FOR_EVENT), null otherwise
  created_at    INTEGER NOT NULL
);
-- One outgoing transition per branch of a step.
CREATE UNIQUE INDEX workflow_transitions_branch ON workflow_transitions(from_step_id, coalesce(branch, ''));
CREATE INDEX workflow_transitions_workflow ON workflow_transitions(workflow_id);

CREATE TABLE workflow_executions (
  id                TEXT PRIMARY KEY,
  workflow_id       TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  project_id        TEXT NOT NULL,
  contact_id        TEXT REFERENCES contacts(id) ON DELETE CASCADE,
  status            TEXT NOT NULL CHECK (status IN ('RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED')),
  trigger_event_id  TEXT,                      -- the event that started it (null for MANUAL)
  trigger_event     TEXT NOT NULL DEFAULT '{}',-- that event's data, for {{event.*}} and the webhook payload
  campaign_id       TEXT,                      -- the campaign of a triggering email event
  context           TEXT NOT NULL DEFAULT '{}',
  current_step_id   TEXT,
  seq               INTEGER NOT NULL DEFAULT 0,-- the step number now due: a job for another number is stale
  wait_event_name   TEXT,                      -- WAIT_FOR_EVENT: the awaited event
  error             TEXT,
  started_at        INTEGER NOT NULL,
  finished_at       INTEGER,
  updated_at        INTEGER NOT NULL
);
-- An event starts a workflow at most once, whatever runs the reaction twice.
CREATE UNIQUE INDEX workflow_executions_trigger ON workflow_executions(workflow_id, trigger_event_id) WHERE trigger_event_id IS NOT NULL;
CREATE INDEX workflow_executions_list ON workflow_executions(workflow_id, started_at);
CREATE INDEX workflow_executions_contact ON workflow_executions(workflow_id, contact_id, status);
CREATE INDEX workflow_executions_waiting ON workflow_executions(project_id, contact_id, wait_event_name) WHERE status = 'WAITING' AND wait_event_name IS NOT NULL;
CREATE INDEX workflow_executions_campaign ON workflow_executions(campaign_id, status) WHERE campaign_id IS NOT NULL;

-- Each step an execution ran, with its output or error; (execution, seq) makes a step's effect happen once.
CREATE TABLE workflow_step_runs (
  execution_id  TEXT NOT NULL REFERENCES workflow_executions(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  step_id       TEXT NOT NULL,
  step_type     TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('COMPLETED', 'FAILED', 'WAITING')),
  output        TEXT,
  error         TEXT,
  started_at    INTEGER NOT NULL,
  finished_at   INTEGER,
  PRIMARY KEY (execution_id, seq)
) WITHOUT ROWID;

-- The per-project secret that signs webhook requests (X-Postmill-Signature).
ALTER TABLE projects ADD COLUMN webhook_secret TEXT;

-- The activity feed reads executions newest first, per project and per contact.
CREATE INDEX workflow_executions_activity ON workflow_executions(project_id, started_at);
CREATE INDEX workflow_executions_contact_activity ON workflow_executions(project_id, contact_id, started_at);
