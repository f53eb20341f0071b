import { parseJson, sql, type Db } from '../../store/db.js';

export type ContactJobType = 'import' | 'bulk-subscribe' | 'bulk-unsubscribe' | 'bulk-delete';
export type ContactJobState = 'queued' | 'running' | 'completed' | 'failed';

/** An import or bulk job as the API polls it; `input` and `result` are the kind's own shapes. */
export interface ContactJob<I = unknown, R = unknown> {
  id: string;
  projectId: string;
  type: ContactJobType;
  state: ContactJobState;
  progress: number;
  input: I;
  /** Rows (import) or ids (bulk) already committed: where a resumed run continues. */
  position: number;
  result: R;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

interface ContactJobRow {
  id: string;
  project_id: string;
  type: ContactJobType;
  state: ContactJobState;
  progress: number;
  input: string;
  position: number;
  result: string;
  error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

const COLUMNS = 'id, project_id, type, state, progress, input, position, result, error, created_at, updated_at, finished_at';

const toJob = (r: ContactJobRow): ContactJob => ({
  id: r.id,
  projectId: r.project_id,
  type: r.type,
  state: r.state,
  progress: r.progress,
  input: parseJson(r.input, {}),
  position: r.position,
  result: parseJson(r.result, {}),
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

export function insertContactJob(db: Db, job: ContactJob): void {
  sql(
    db,
    `INSERT INTO contact_jobs (${COLUMNS})
     VALUES (@id, @project_id, @type, @state, @progress, @input, @position, @result, @error, @created_at, @updated_at, @finished_at)`,
  ).run({
    id: job.id,
    project_id: job.projectId,
    type: job.type,
    state: job.state,
    progress: job.progress,
    input: JSON.stringify(job.input),
    position: job.position,
    result: JSON.stringify(job.result),
    error: job.error,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    finished_at: job.finishedAt,
  });
}

export function findContactJob(db: Db, projectId: string, id: string): ContactJob | null {
  const row = sql(db, `SELECT ${COLUMNS} FROM contact_jobs WHERE project_id = ? AND id = ?`).get(projectId, id) as ContactJobRow | undefined;
  return row ? toJob(row) : null;
}

/** What a run writes as it goes: state, progress, position and totals, in the transaction of the batch. */
export interface JobProgress {
  state: ContactJobState;
  progress: number;
  position: number;
  result: unknown;
  error: string | null;
  at: number;
  finishedAt: number | null;
}

export function saveContactJob(db: Db, projectId: string, id: string, p: JobProgress): void {
  sql(
    db,
    `UPDATE contact_jobs SET state = @state, progress = @progress, position = @position, result = @result, error = @error,
       updated_at = @at, finished_at = @finished_at
     WHERE project_id = @project_id AND id = @id`,
  ).run({
    project_id: projectId,
    id,
    state: p.state,
    progress: p.progress,
    position: p.position,
    result: JSON.stringify(p.result),
    error: p.error,
    at: p.at,
    finished_at: p.finishedAt,
  });
}

/** Jobs created before `before`, of every project: the retention sweep. */
export function deleteContactJobsCreatedBefore(db: Db, before: number): number {
  return sql(db, 'DELETE FROM contact_jobs WHERE created_at < ?').run(before).changes;
}

/** Whether a job of the project still has work to do (an import file it needs, for the sweep). */
export function isContactJobUnfinished(db: Db, projectId: string, id: string): boolean {
  return sql(db, `SELECT 1 FROM contact_jobs WHERE project_id = ? AND id = ? AND state IN ('queued', 'running')`).get(projectId, id) !== undefined;
}
