import { parseJson, sql, type Db } from '../store/db.js';
import { offsetPage } from '../store/offset-page.js';
import type { StepType } from './step-types.js';
import type { ReadOptions, Reader } from '../store/reader.js';

export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const ACTIVE_STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'WAITING'];

/** The event that started an execution, as its steps read it ({{event.*}}, the webhook payload). */
export interface TriggerEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  createdAt: number;
}

export interface Execution {
  id: string;
  workflowId: string;
  projectId: string;
  contactId: string | null;
  status: ExecutionStatus;
  triggerEvent: TriggerEvent | null;
  campaignId: string | null;
  context: Record<string, unknown>;
  currentStepId: string | null;
  /** The number of the step visit now due; a job for another number is stale. */
  seq: number;
  waitEventName: string | null;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
  updatedAt: number;
}

export type StepRunStatus = 'COMPLETED' | 'FAILED' | 'WAITING';

export interface StepRun {
  executionId: string;
  seq: number;
  stepId: string;
  stepType: StepType;
  status: StepRunStatus;
  output: unknown;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

interface ExecutionRow {
  id: string;
  workflow_id: string;
  project_id: string;
  contact_id: string | null;
  status: ExecutionStatus;
  trigger_event_id: string | null;
  trigger_event: string;
  campaign_id: string | null;
  context: string;
  current_step_id: string | null;
  seq: number;
  wait_event_name: string | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
  updated_at: number;
}

interface StepRunRow {
  execution_id: string;
  seq: number;
  step_id: string;
  step_type: StepType;
  status: StepRunStatus;
  output: string | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

const toExecution = (r: ExecutionRow): Execution => ({
  id: r.id,
  workflowId: r.workflow_id,
  projectId: r.project_id,
  contactId: r.contact_id,
  status: r.status,
  triggerEvent: r.trigger_event_id ? parseJson<TriggerEvent | null>(r.trigger_event, null) : null,
  campaignId: r.campaign_id,
  context: parseJson(r.context, {}),
  currentStepId: r.current_step_id,
  seq: r.seq,
  waitEventName: r.wait_event_name,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  updatedAt: r.updated_at,
});

const toStepRun = (r: StepRunRow): StepRun => ({
  executionId: r.execution_id,
  seq: r.seq,
  stepId: r.step_id,
  stepType: r.step_type,
  status: r.status,
  output: parseJson(r.output, null),
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** Answers false when the trigger event already started this workflow (the reaction ran twice). */
export function insertExecution(db: Db, e: Execution): boolean {
  return (
    sql(
      db,
      `INSERT INTO workflow_executions (id, workflow_id, project_id, contact_id, status, trigger_event_id, trigger_event, campaign_id, context,
         current_step_id, seq, wait_event_name, error, started_at, finished_at, updated_at)
       VALUES (@id, @workflow_id, @project_id, @contact_id, @status, @trigger_event_id, @trigger_event, @campaign_id, @context,
         @current_step_id, @seq, @wait_event_name, @error, @started_at, @finished_at, @updated_at)
       ON CONFLICT DO NOTHING`,
    ).run({
      id: e.id,
      workflow_id: e.workflowId,
      project_id: e.projectId,
      contact_id: e.contactId,
      status: e.status,
      trigger_event_id: e.triggerEvent?.id ?? null,
      trigger_event: JSON.stringify(e.triggerEvent ?? {}),
      campaign_id: e.campaignId,
      context: JSON.stringify(e.context),
      current_step_id: e.currentStepId,
      seq: e.seq,
      wait_event_name: e.waitEventName,
      error: e.error,
      started_at: e.startedAt,
      finished_at: e.finishedAt,
      updated_at: e.updatedAt,
    }).changes === 1
  );
}

export function findExecution(db: Db, projectId: string, id: string): Execution | null {
  const row = sql(db, 'SELECT * FROM workflow_executions WHERE project_id = ? AND id = ?').get(projectId, id) as ExecutionRow | undefined;
  return row ? toExecution(row) : null;
}

/** Whether the contact has an execution of the workflow (an active one, with `activeOnly`): the re-entry rules. */
export function hasExecution(db: Db, workflowId: string, contactId: string, activeOnly: boolean): boolean {
  const statuses = activeOnly ? ACTIVE_STATUSES : EXECUTION_STATUSES;
  return (
    sql(db, 'SELECT 1 FROM workflow_executions WHERE workflow_id = ? AND contact_id = ? AND status IN (SELECT value FROM json_each(?)) LIMIT 1').get(
      workflowId,
      contactId,
      JSON.stringify(statuses),
    ) !== undefined
  );
}

/** Where an execution goes next; `status` RUNNING or WAITING, or a final one with `finished`. */
export interface Move {
  status: ExecutionStatus;
  currentStepId: string | null;
  seq: number;
  waitEventName?: string | null;
  error?: string | null;
}

/**
 * Moves the execution on, if it is still at `fromSeq` in one of `from` (compare and set): what
 * makes every step take effect once, whoever else (a duplicate job, an event, a cancel) got there first.
 */
export function moveExecution(db: Db, id: string, fromSeq: number, from: readonly ExecutionStatus[], move: Move, now: number): boolean {
  const final = !ACTIVE_STATUSES.includes(move.status);
  return (
    sql(
      db,
      `UPDATE workflow_executions SET status = ?, current_step_id = ?, seq = ?, wait_event_name = ?, error = ?, finished_at = ?, updated_at = ?
       WHERE id = ? AND seq = ? AND status IN (SELECT value FROM json_each(?))`,
    ).run(move.status, move.currentStepId, move.seq, move.waitEventName ?? null, move.error ?? null, final ? now : null, now, id, fromSeq, JSON.stringify(from)).changes === 1
  );
}

export function insertStepRun(db: Db, run: StepRun): void {
  sql(
    db,
    `INSERT INTO workflow_step_runs (execution_id, seq, step_id, step_type, status, output, error, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (execution_id, seq) DO UPDATE SET status = excluded.status, output = excluded.output, error = excluded.error, finished_at = excluded.finished_at`,
  ).run(run.executionId, run.seq, run.stepId, run.stepType, run.status, run.output === undefined ? null : JSON.stringify(run.output), run.error, run.startedAt, run.finishedAt);
}

export function stepRunsOf(db: Db, executionId: string): StepRun[] {
  return (sql(db, 'SELECT * FROM workflow_step_runs WHERE execution_id = ? ORDER BY seq').all(executionId) as StepRunRow[]).map(toStepRun);
}

export async function listExecutions(
  reader: Reader,
  read: ReadOptions,
  workflowId: string,
  q: { status: ExecutionStatus | null; offset: number; pageSize: number },
): Promise<{ data: Execution[]; total: number }> {
  const where = ['workflow_id = ?'];
  const params: unknown[] = [workflowId];
  if (q.status) {
    where.push('status = ?');
    params.push(q.status);
  }
  const { rows, total } = await offsetPage<ExecutionRow>(reader, read, { table: 'workflow_executions', columns: '*', where, params, orderBy: 'started_at', dir: 'desc', ...q });
  return { data: rows.map(toExecution), total };
}

/** Executions of the contact waiting for this event name, in this project. */
export function waitingFor(db: Db, projectId: string, contactId: string, eventName: string): Execution[] {
  return (
    sql(db, `SELECT * FROM workflow_executions WHERE project_id = ? AND contact_id = ? AND wait_event_name = ? AND status = 'WAITING'`).all(
      projectId,
      contactId,
      eventName,
    ) as ExecutionRow[]
  ).map(toExecution);
}

export function activeExecutions(db: Db, workflowId: string): { id: string; seq: number; currentStepId: string | null }[] {
  return sql(db, `SELECT id, seq, current_step_id AS currentStepId FROM workflow_executions WHERE workflow_id = ? AND status IN ('RUNNING', 'WAITING')`).all(
    workflowId,
  ) as { id: string; seq: number; currentStepId: string | null }[];
}

export function countActiveForCampaign(db: Db, campaignId: string): number {
  return (sql(db, `SELECT COUNT(*) AS n FROM workflow_executions WHERE campaign_id = ? AND status IN ('RUNNING', 'WAITING')`).get(campaignId) as { n: number }).n;
}

/** Executions of the project newest first (by start, then rowid), older than the bound: the activity feed's page. */
export function executionsPage(
  db: Db,
  q: { projectId: string; contactId: string | null; before: { at: number; key: number }; from: number; to: number; limit: number },
): { key: number; id: string; workflowId: string; contactId: string | null; status: ExecutionStatus; startedAt: number }[] {
  const contact = q.contactId === null ? '' : 'AND contact_id = @contactId';
  return sql(
    db,
    `SELECT rowid AS key, id, workflow_id AS workflowId, contact_id AS contactId, status, started_at AS startedAt FROM workflow_executions
     WHERE project_id = @projectId ${contact} AND started_at BETWEEN @from AND @to AND (started_at < @at OR (started_at = @at AND rowid < @key))
     ORDER BY started_at DESC, rowid DESC LIMIT @limit`,
  ).all({ projectId: q.projectId, contactId: q.contactId, from: q.from, to: q.to, at: q.before.at, key: q.before.key, limit: q.limit }) as ReturnType<typeof executionsPage>;
}

/** Executions at each step of the workflow now (running or waiting there), and the runs that passed or failed it. */
export interface StepCount {
  now: number;
  passed: number;
  failed: number;
}

/**
 * The counts of the workflow's steps, by step id: `passed` and `failed` from the counters the
 * store's triggers keep (migration 098, one row a step), `now` on a reader thread (it counts every
 * active execution, which grows with the project's contacts) through a partial index that covers it.
 */
export async function stepCounts(db: Db, reader: Reader, read: ReadOptions, workflowId: string): Promise<Map<string, StepCount>> {
  const counts = new Map<string, StepCount>();
  const entry = (stepId: string) => counts.get(stepId) ?? counts.set(stepId, { now: 0, passed: 0, failed: 0 }).get(stepId)!;
  const kept = sql(
    db,
    `SELECT c.step_id AS stepId, c.passed, c.failed FROM workflow_step_counts c JOIN workflow_steps s ON s.id = c.step_id WHERE s.workflow_id = ?`,
  ).all(workflowId) as { stepId: string; passed: number; failed: number }[];
  for (const row of kept) Object.assign(entry(row.stepId), { passed: row.passed, failed: row.failed });
  const active = await reader.all<{ stepId: string; n: number }>(
    read,
    `SELECT current_step_id AS stepId, COUNT(*) AS n FROM workflow_executions
     WHERE budget() AND workflow_id = ? AND status IN ('RUNNING', 'WAITING') AND current_step_id IS NOT NULL AND project_id = ? GROUP BY current_step_id`,
    [workflowId, read.projectId],
  );
  for (const row of active) entry(row.stepId).now = row.n;
  return counts;
}
