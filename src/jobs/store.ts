// The jobs table: every statement of the durable queue (src/jobs/queue.ts holds the rules around them).
import { parseJson, sql, type Db } from '../store/db.js';
import { LANES, type Job } from './types.js';

interface JobRow {
  id: number;
  kind: string;
  lane: number;
  project_id: string | null;
  payload: string;
  attempts: number;
  max_attempts: number;
  run_at: number;
  created_at: number;
}

const toJob = (row: JobRow): Job => ({
  id: row.id,
  kind: row.kind,
  lane: LANES[row.lane] ?? 'transactional',
  projectId: row.project_id,
  payload: parseJson(row.payload, {}),
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  runAt: row.run_at,
  createdAt: row.created_at,
});

/**
 * `queued_projects`: the distinct project ids (null first, for jobs of no project) among queued
 * jobs of @kind in @lane, found by skipping through the jobs_due index rather than reading its rows.
 */
const QUEUED_PROJECTS = `WITH RECURSIVE ids(project_id) AS (
    SELECT (SELECT project_id FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS NOT NULL ORDER BY project_id LIMIT 1)
    UNION ALL
    SELECT (SELECT project_id FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id > ids.project_id ORDER BY project_id LIMIT 1)
      FROM ids WHERE ids.project_id IS NOT NULL
  ),
  queued_projects(project_id) AS (
    SELECT NULL WHERE EXISTS (SELECT 1 FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS NULL)
    UNION ALL
    SELECT project_id FROM ids WHERE project_id IS NOT NULL
  )`;

export interface NewJob {
  kind: string;
  lane: number;
  projectId: string | null;
  payload: string;
  runAt: number;
  maxAttempts: number;
  uniqueKey: string | null;
  coalesceKey: string | null;
  now: number;
}

/** The new job's id, or null when a unique or coalesce key made it a no-op. */
export function insertJob(db: Db, job: NewJob): number | null {
  const info = sql(
    db,
    `INSERT INTO jobs (kind, lane, project_id, payload, run_at, max_attempts, unique_key, coalesce_key, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  ).run(job.kind, job.lane, job.projectId, job.payload, job.runAt, job.maxAttempts, job.uniqueKey, job.coalesceKey, job.now, job.now);
  return info.changes === 0 ? null : Number(info.lastInsertRowid);
}

/** Moves a queued job of the unique key to `runAt` if it was due later; answers its kind when it did. */
export function bringJobForward(db: Db, uniqueKey: string, runAt: number): string | null {
  if (sql(db, "UPDATE jobs SET run_at = ? WHERE unique_key = ? AND status = 'queued' AND run_at > ?").run(runAt, uniqueKey, runAt).changes === 0) return null;
  return sql(db, 'SELECT kind FROM jobs WHERE unique_key = ?').pluck().get(uniqueKey) as string;
}

/** The projects (null: jobs of no project) with due jobs of the kind in the lane, in id order: one index seek each. */
export function dueProjects(db: Db, kind: string, lane: number, now: number): (string | null)[] {
  return sql(
    db,
    `${QUEUED_PROJECTS} SELECT project_id FROM queued_projects AS q
      WHERE EXISTS (SELECT 1 FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS q.project_id AND run_at <= @now)`,
  )
    .pluck()
    .all({ kind, lane, now }) as (string | null)[];
}

/** Claims the project's oldest due jobs of the kind in the lane. */
export function claimJobsOfProject(db: Db, kind: string, lane: number, projectId: string | null, limit: number, lockedUntil: number, now: number): Job[] {
  const rows = sql(
    db,
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND kind = ? AND lane = ? AND project_id IS ? AND run_at <= ? ORDER BY run_at, id LIMIT ?)
     RETURNING id, kind, lane, project_id, payload, attempts, max_attempts, run_at, created_at`,
  ).all(lockedUntil, now, kind, lane, projectId, now, limit) as JobRow[];
  // RETURNING keeps no order
  return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id).map(toJob);
}

export function deleteJobs(db: Db, ids: number[]): void {
  sql(db, 'DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
}

/** Queued again for `runAt`; `giveBack` returns the attempt its claim counted. */
export function requeueJob(db: Db, id: number, runAt: number, error: string | null, giveBack: boolean, now: number): void {
  sql(db, `UPDATE jobs SET status = 'queued', run_at = ?, last_error = ?, locked_until = NULL, updated_at = ?, attempts = attempts - ? WHERE id = ?`).run(
    runAt,
    error,
    now,
    giveBack ? 1 : 0,
    id,
  );
}

export function failJob(db: Db, id: number, error: string, now: number): void {
  sql(db, `UPDATE jobs SET status = 'failed', last_error = ?, locked_until = NULL, updated_at = ? WHERE id = ?`).run(error, now, id);
}

/** Jobs left running by a stopped or killed process go back to the queue; answers how many. */
export const requeueRunning = (db: Db): number => sql(db, `UPDATE jobs SET status = 'queued', locked_until = NULL WHERE status = 'running'`).run().changes;

/** The earliest run_at after `after` among queued jobs of the kind in the lane: one index seek per project. */
export function nextRunAt(db: Db, kind: string, lane: number, after: number): number | null {
  return sql(
    db,
    `${QUEUED_PROJECTS} SELECT MIN((SELECT run_at FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS q.project_id AND run_at > @after ORDER BY run_at LIMIT 1))
       FROM queued_projects AS q`,
  )
    .pluck()
    .get({ kind, lane, after }) as number | null;
}

/** Whether a queued job of one of the kinds is due at `now`. */
export const anyDue = (db: Db, kinds: string[], now: number): boolean =>
  sql(db, "SELECT 1 FROM jobs WHERE status = 'queued' AND kind IN (SELECT value FROM json_each(?)) AND run_at <= ? LIMIT 1").get(JSON.stringify(kinds), now) !== undefined;

