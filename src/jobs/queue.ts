import type { Clock } from '../clock.js';
import { parseJson, sql, type Db } from '../store/db.js';

export interface Job<P = unknown> {
  id: number;
  kind: string;
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
}

interface JobRow {
  id: number;
  kind: string;
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

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The runner listens here so new work starts without polling. */
  setListener(fn: (kind: string, runAt: number) => void): void {
    this.onEnqueue = fn;
  }

  enqueue(kind: string, payload: unknown, opts: EnqueueOptions = {}): number | null {
    const now = this.clock.now();
    const runAt = opts.runAt ?? now;
    const info = sql(
      this.db,
      `INSERT INTO jobs (kind, project_id, payload, run_at, max_attempts, unique_key, coalesce_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      kind,
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

  /** Due means run_at <= now; pass the `now` of the whole pass so nothing falls between two clock reads. */
  claim(kind: string, limit: number, leaseMs: number, now = this.clock.now()): Job[] {
    const rows = sql(
      this.db,
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?
       WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND kind = ? AND run_at <= ? ORDER BY run_at, id LIMIT ?)
       RETURNING id, kind, project_id, payload, attempts, max_attempts, run_at, created_at`,
    ).all(now + leaseMs, now, kind, now, limit) as JobRow[];
    return rows.map(toJob);
  }

  complete(id: number): void {
    sql(this.db, 'DELETE FROM jobs WHERE id = ?').run(id);
  }

  retry(id: number, runAt: number, error: string | null): void {
    sql(this.db, `UPDATE jobs SET status = 'queued', run_at = ?, last_error = ?, locked_until = NULL, updated_at = ? WHERE id = ?`).run(
      runAt,
      error,
      this.clock.now(),
      id,
    );
  }

  fail(id: number, error: string): void {
    sql(this.db, `UPDATE jobs SET status = 'failed', last_error = ?, locked_until = NULL, updated_at = ? WHERE id = ?`).run(error, this.clock.now(), id);
  }

  /** Jobs left running by a stopped or killed process go back to the queue. */
  recover(): number {
    return sql(this.db, `UPDATE jobs SET status = 'queued', locked_until = NULL WHERE status = 'running'`).run().changes;
  }

  nextRunAfter(kinds: string[], after: number): number | null {
    if (kinds.length === 0) return null;
    const row = sql(
      this.db,
      `SELECT MIN(run_at) AS t FROM jobs WHERE status = 'queued' AND kind IN (SELECT value FROM json_each(?)) AND run_at > ?`,
    ).get(JSON.stringify(kinds), after) as { t: number | null };
    return row.t;
  }
}
