import { parseJson, sql, type Db } from '../store/db.js';
import type { StepType } from './step-types.js';

export type TriggerType = 'EVENT' | 'MANUAL';

export interface Workflow {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  triggerType: TriggerType;
  eventName: string | null;
  enabled: boolean;
  allowReentry: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface Step {
  id: string;
  workflowId: string;
  type: StepType;
  name: string;
  position: { x: number; y: number };
  config: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export interface Transition {
  id: string;
  workflowId: string;
  fromStepId: string;
  toStepId: string;
  branch: string | null;
  createdAt: number;
}

/** A workflow with its graph, as the runner and the API read it. */
export interface WorkflowGraph extends Workflow {
  steps: Step[];
  transitions: Transition[];
}

interface WorkflowRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  trigger_type: TriggerType;
  event_name: string | null;
  enabled: number;
  allow_reentry: number;
  created_at: number;
  updated_at: number;
}

interface StepRow {
  id: string;
  workflow_id: string;
  type: StepType;
  name: string;
  position_x: number;
  position_y: number;
  config: string;
  created_at: number;
  updated_at: number;
}

interface TransitionRow {
  id: string;
  workflow_id: string;
  from_step_id: string;
  to_step_id: string;
  branch: string | null;
  created_at: number;
}

const toWorkflow = (r: WorkflowRow): Workflow => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  description: r.description,
  triggerType: r.trigger_type,
  eventName: r.event_name,
  enabled: r.enabled === 1,
  allowReentry: r.allow_reentry === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toStep = (r: StepRow): Step => ({
  id: r.id,
  workflowId: r.workflow_id,
  type: r.type,
  name: r.name,
  position: { x: r.position_x, y: r.position_y },
  config: parseJson(r.config, {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toTransition = (r: TransitionRow): Transition => ({
  id: r.id,
  workflowId: r.workflow_id,
  fromStepId: r.from_step_id,
  toStepId: r.to_step_id,
  branch: r.branch,
  createdAt: r.created_at,
});

const workflowParams = (w: Workflow) => ({
  id: w.id,
  project_id: w.projectId,
  name: w.name,
  description: w.description,
  trigger_type: w.triggerType,
  event_name: w.eventName,
  enabled: w.enabled ? 1 : 0,
  allow_reentry: w.allowReentry ? 1 : 0,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

export function insertWorkflow(db: Db, w: Workflow): void {
  sql(
    db,
    `INSERT INTO workflows (id, project_id, name, description, trigger_type, event_name, enabled, allow_reentry, created_at, updated_at)
     VALUES (@id, @project_id, @name, @description, @trigger_type, @event_name, @enabled, @allow_reentry, @created_at, @updated_at)`,
  ).run(workflowParams(w));
}

export function updateWorkflow(db: Db, w: Workflow): void {
  sql(
    db,
    `UPDATE workflows SET name = @name, description = @description, trigger_type = @trigger_type, event_name = @event_name,
       enabled = @enabled, allow_reentry = @allow_reentry, updated_at = @updated_at
     WHERE project_id = @project_id AND id = @id`,
  ).run(workflowParams(w));
}

export function deleteWorkflowRow(db: Db, projectId: string, id: string): void {
  sql(db, 'DELETE FROM workflows WHERE project_id = ? AND id = ?').run(projectId, id);
}

export function findWorkflow(db: Db, projectId: string, id: string): Workflow | null {
  const row = sql(db, 'SELECT * FROM workflows WHERE project_id = ? AND id = ?').get(projectId, id) as WorkflowRow | undefined;
  return row ? toWorkflow(row) : null;
}

export function listWorkflows(db: Db, projectId: string, page: { offset: number; pageSize: number }): { data: Workflow[]; total: number } {
  const rows = sql(db, 'SELECT * FROM workflows WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(
    projectId,
    page.pageSize,
    page.offset,
  ) as WorkflowRow[];
  const total = (sql(db, 'SELECT COUNT(*) AS n FROM workflows WHERE project_id = ?').get(projectId) as { n: number }).n;
  return { data: rows.map(toWorkflow), total };
}

/** Every workflow of the project with its graph: what the trigger catalogue and usage reports read. */
export function projectWorkflows(db: Db, projectId: string): WorkflowGraph[] {
  const workflows = (sql(db, 'SELECT * FROM workflows WHERE project_id = ? ORDER BY created_at').all(projectId) as WorkflowRow[]).map(toWorkflow);
  return workflows.map((w) => graphOf(db, w));
}

export function graphOf(db: Db, w: Workflow): WorkflowGraph {
  const steps = (sql(db, 'SELECT * FROM workflow_steps WHERE workflow_id = ? ORDER BY created_at, id').all(w.id) as StepRow[]).map(toStep);
  const transitions = (sql(db, 'SELECT * FROM workflow_transitions WHERE workflow_id = ? ORDER BY created_at, id').all(w.id) as TransitionRow[]).map(toTransition);
  return { ...w, steps, transitions };
}

const stepParams = (s: Step) => ({
  id: s.id,
  workflow_id: s.workflowId,
  type: s.type,
  name: s.name,
  position_x: s.position.x,
  position_y: s.position.y,
  config: JSON.stringify(s.config),
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

export function insertStep(db: Db, s: Step): void {
  sql(
    db,
    `INSERT INTO workflow_steps (id, workflow_id, type, name, position_x, position_y, config, created_at, updated_at)
     VALUES (@id, @workflow_id, @type, @name, @position_x, @position_y, @config, @created_at, @updated_at)`,
  ).run(stepParams(s));
}

export function updateStep(db: Db, s: Step): void {
  sql(
    db,
    `UPDATE workflow_steps SET name = @name, position_x = @position_x, position_y = @position_y, config = @config, updated_at = @updated_at
     WHERE workflow_id = @workflow_id AND id = @id`,
  ).run(stepParams(s));
}

export function deleteStepRow(db: Db, workflowId: string, id: string): void {
  sql(db, 'DELETE FROM workflow_steps WHERE workflow_id = ? AND id = ?').run(workflowId, id);
}

export function insertTransition(db: Db, t: Transition): void {
  sql(db, 'INSERT INTO workflow_transitions (id, workflow_id, from_step_id, to_step_id, branch, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    t.id,
    t.workflowId,
    t.fromStepId,
    t.toStepId,
    t.branch,
    t.createdAt,
  );
}

export function deleteTransitionRow(db: Db, workflowId: string, id: string): boolean {
  return sql(db, 'DELETE FROM workflow_transitions WHERE workflow_id = ? AND id = ?').run(workflowId, id).changes === 1;
}

/** Enabled workflows of the project that an event name starts: (workflow id, event name). */
export const startingWorkflows = (db: Db, projectId: string): { id: string; event_name: string }[] =>
  sql(db, `SELECT id, event_name FROM workflows WHERE project_id = ? AND enabled = 1 AND trigger_type = 'EVENT' AND event_name IS NOT NULL`).all(projectId) as {
    id: string;
    event_name: string;
  }[];

/** Event names that WAIT_FOR_EVENT steps of the project's workflows wait for. */
export const awaitedEventNames = (db: Db, projectId: string): string[] =>
  sql(
    db,
    `SELECT DISTINCT json_extract(s.config, '$.eventName') AS name FROM workflow_steps s JOIN workflows w ON w.id = s.workflow_id
     WHERE w.project_id = ? AND s.type = 'WAIT_FOR_EVENT'`,
  )
    .pluck()
    .all(projectId) as string[];

