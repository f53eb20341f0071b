import type { Clock } from '../clock.js';
import { parseJson, sql, type Db } from '../store/db.js';

/** Delivery lanes: transactional jobs of a kind are claimed before its bulk (campaign) jobs. */
export const LANES = ['transactional', 'bulk'] as const;
export type Lane = (typeof LANES)[number];

export interface Job<P = unknown> {
  id: number;
  kind: string;
  /** Absent means transactional. */
  lane?: Lane;
  projectId: string | null;
  payload: P;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  createdAt: number;
}

export interface EnqueueOptions {
  projectId?: string | null;
  runAt?: number;
  maxAttempts?: number;
  /** A second enqueue with the same key is ignored: what makes re-running a producer safe. */
  uniqueKey?: string;
  /** A second enqueue with the same key is ignored while the first waits and has not started: coalesces bursts. */
  coalesceKey?: string;
  /** Transactional unless said otherwise. */
  lane?: Lane;
}

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

export const DEFAULT_MAX_ATTEMPTS = 5;

/** Durable job rows. Call enqueue inside the transaction that makes the job necessary. */
export class JobQueue {
  private onEnqueue: (kind: string, runAt: number) => void = () => {};
  /** The project each kind's lane served last: its next claim starts with the project after it. */
  private readonly lastServed = new Map<string, string | null>();
  private readonly inTransaction: (fn: () => void) => void;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.inTransaction = db.transaction((fn: () => void) => fn());
  }

  /** The runner listens here so new work starts without polling. */
  setListener(fn: (kind: string, runAt: number) => void): void {
    this.onEnqueue = fn;
  }

  enqueue(kind: string, payload: unknown, opts: EnqueueOptions = {}): number | null {
    const now = this.clock.now();
    const runAt = opts.runAt ?? now;
    const info = sql(
      this.db,
      `INSERT INTO jobs (kind, lane, project_id, payload, run_at, max_attempts, unique_key, coalesce_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      kind,
      LANES.indexOf(opts.lane ?? 'transactional'),
      opts.projectId ?? null,
      JSON.stringify(payload ?? {}),
      runAt,
      opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      opts.uniqueKey ?? null,
      opts.coalesceKey ?? null,
      now,
      now,
    );
    if (info.changes === 0) return null;
    this.onEnqueue(kind, runAt);
    return Number(info.lastInsertRowid);
  }

  /** A queued job of this unique key runs no later than `runAt` (a recurring job that must also run at start). */
  bringForward(uniqueKey: string, runAt: number): void {
    if (sql(this.db, "UPDATE jobs SET run_at = ? WHERE unique_key = ? AND status = 'queued' AND run_at > ?").run(runAt, uniqueKey, runAt).changes > 0) {
      const kind = sql(this.db, 'SELECT kind FROM jobs WHERE unique_key = ?').pluck().get(uniqueKey) as string;
      this.onEnqueue(kind, runAt);
    }
  }

  /**
   * Claims up to `limit` due jobs of `kind`, transactional ones first, then at most `bulkLimit` bulk
   * ones. Within a lane the places go to the projects with due jobs in rotation (each project's
   * oldest first), none taking more than `room` says it may still hold: one project's backlog never
   * stands in front of another's work. Due means run_at <= now; pass the `now` of the whole pass so
   * nothing falls between two clock reads.
   */
  claim(kind: string, limit: number, leaseMs: number, now = this.clock.now(), bulkLimit = limit, room: (projectId: string | null) => number = () => limit): Job[] {
    const taken = new Map<string | null, number>();
    const left = (projectId: string | null) => room(projectId) - (taken.get(projectId) ?? 0);
    const claimed = this.claimLane(kind, 'transactional', limit, leaseMs, now, left);
    for (const job of claimed) taken.set(job.projectId, (taken.get(job.projectId) ?? 0) + 1);
    const bulk = Math.min(limit - claimed.length, bulkLimit);
    return bulk > 0 ? claimed.concat(this.claimLane(kind, 'bulk', bulk, leaseMs, now, left)) : claimed;
  }

  /**
   * Shares `limit` places among the lane's projects with due jobs: in rounds, each project still
   * wanting gets an equal part of what is left (at least one, in rotation from the project after the
   * last one served), until the places or the due jobs run out.
   */
  private claimLane(kind: string, lane: Lane, limit: number, leaseMs: number, now: number, room: (projectId: string | null) => number): Job[] {
    const rotation = `${kind} ${lane}`;
    let wanting = rotated(this.dueProjects(kind, lane, now), this.lastServed.get(rotation))
      .map((projectId) => ({ projectId, room: room(projectId) }))
      .filter((p) => p.room > 0);
    const claimed: Job[] = [];
    while (claimed.length < limit && wanting.length > 0) {
      const share = Math.max(1, Math.floor((limit - claimed.length) / wanting.length));
      const still: typeof wanting = [];
      for (const project of wanting) {
        const want = Math.min(share, project.room, limit - claimed.length);
        if (want <= 0) break;
        const jobs = this.claimOfProject(kind, lane, project.projectId, want, leaseMs, now);
        claimed.push(...jobs);
        project.room -= jobs.length;
        this.lastServed.set(rotation, project.projectId);
        if (jobs.length === want && project.room > 0) still.push(project);
      }
      wanting = still;
    }
    return claimed;
  }

  /** The projects (null: jobs of no project) with due jobs of the kind in the lane, in id order: one index seek each. */
  private dueProjects(kind: string, lane: Lane, now: number): (string | null)[] {
    return sql(
      this.db,
      `${QUEUED_PROJECTS} SELECT project_id FROM queued_projects AS q
        WHERE EXISTS (SELECT 1 FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS q.project_id AND run_at <= @now)`,
    )
      .pluck()
      .all({ kind, lane: LANES.indexOf(lane), now }) as (string | null)[];
  }

  private claimOfProject(kind: string, lane: Lane, projectId: string | null, limit: number, leaseMs: number, now: number): Job[] {
    const rows = sql(
      this.db,
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?
       WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND kind = ? AND lane = ? AND project_id IS ? AND run_at <= ? ORDER BY run_at, id LIMIT ?)
       RETURNING id, kind, lane, project_id, payload, attempts, max_attempts, run_at, created_at`,
    ).all(now + leaseMs, now, kind, LANES.indexOf(lane), projectId, now, limit) as JobRow[];
    // RETURNING keeps no order
    return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id).map(toJob);
  }

  /** Runs fn in one transaction: a pass of the runner writes its settled jobs and its claims with one commit. */
  batch(fn: () => void): void {
    this.inTransaction(fn);
  }

  completeAll(ids: number[]): void {
    sql(this.db, 'DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
  }

  /**
   * Queues the job again for `runAt`. A failure keeps the attempt its claim counted; a reschedule
   * the handler asked for (a deferral, a rate's next slot) gives it back: waiting is not failing,
   * and however often a job waits, its failures still get every attempt.
   */
  retry(id: number, runAt: number, error: string | null, countsAsAttempt = true): void {
    sql(
      this.db,
      `UPDATE jobs SET status = 'queued', run_at = ?, last_error = ?, locked_until = NULL, updated_at = ?, attempts = attempts - ? WHERE id = ?`,
    ).run(runAt, error, this.clock.now(), countsAsAttempt ? 0 : 1, id);
  }

  fail(id: number, error: string): void {
    sql(this.db, `UPDATE jobs SET status = 'failed', last_error = ?, locked_until = NULL, updated_at = ? WHERE id = ?`).run(error, this.clock.now(), id);
  }

  /** Jobs left running by a stopped or killed process go back to the queue. */
  recover(): number {
    return sql(this.db, `UPDATE jobs SET status = 'queued', locked_until = NULL WHERE status = 'running'`).run().changes;
  }

  /** The earliest run_at after `after` among queued jobs of `kinds`: one index seek per kind, lane and project. */
  nextRunAfter(kinds: string[], after: number): number | null {
    let next: number | null = null;
    for (const kind of kinds) {
      for (let lane = 0; lane < LANES.length; lane++) {
        const runAt = sql(
          this.db,
          `${QUEUED_PROJECTS} SELECT MIN((SELECT run_at FROM jobs WHERE status = 'queued' AND kind = @kind AND lane = @lane AND project_id IS q.project_id AND run_at > @after ORDER BY run_at LIMIT 1))
             FROM queued_projects AS q`,
        )
          .pluck()
          .get({ kind, lane, after }) as number | null;
        if (runAt !== null && (next === null || runAt < next)) next = runAt;
      }
    }
    return next;
  }
}

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

/** The projects in id order, starting after `last` (the rotation's next turn); null sorts first, as in SQL. */
function rotated(projects: (string | null)[], last: string | null | undefined): (string | null)[] {
  if (last === undefined) return projects;
  const after = projects.findIndex((p) => last === null ? p !== null : p !== null && p > last);
  return after <= 0 ? projects : projects.slice(after).concat(projects.slice(0, after));
}
