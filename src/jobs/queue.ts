import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import type { EnqueueOptions, Job, Lane } from './types.js';
import { LANES } from './types.js';
import { anyDue, bringJobForward, claimJobsOfProject, deleteJobs, dueProjects, failJob, insertJob, nextRunAt, requeueJob, requeueRunning } from './store.js';

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
    const id = insertJob(this.db, {
      kind,
      lane: LANES.indexOf(opts.lane ?? 'transactional'),
      projectId: opts.projectId ?? null,
      payload: JSON.stringify(payload ?? {}),
      runAt,
      maxAttempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      uniqueKey: opts.uniqueKey ?? null,
      coalesceKey: opts.coalesceKey ?? null,
      now,
    });
    if (id !== null) this.onEnqueue(kind, runAt);
    return id;
  }

  /** A queued job of this unique key runs no later than `runAt` (a recurring job that must also run at start). */
  bringForward(uniqueKey: string, runAt: number): void {
    const kind = bringJobForward(this.db, uniqueKey, runAt);
    if (kind !== null) this.onEnqueue(kind, runAt);
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
    let wanting = rotated(dueProjects(this.db, kind, LANES.indexOf(lane), now), this.lastServed.get(rotation))
      .map((projectId) => ({ projectId, room: room(projectId) }))
      .filter((p) => p.room > 0);
    const claimed: Job[] = [];
    while (claimed.length < limit && wanting.length > 0) {
      const share = Math.max(1, Math.floor((limit - claimed.length) / wanting.length));
      const still: typeof wanting = [];
      for (const project of wanting) {
        const want = Math.min(share, project.room, limit - claimed.length);
        if (want <= 0) break;
        const jobs = claimJobsOfProject(this.db, kind, LANES.indexOf(lane), project.projectId, want, now + leaseMs, now);
        claimed.push(...jobs);
        project.room -= jobs.length;
        this.lastServed.set(rotation, project.projectId);
        if (jobs.length === want && project.room > 0) still.push(project);
      }
      wanting = still;
    }
    return claimed;
  }

  /** Whether a queued job of `kinds` is due at `now`. */
  hasDue(kinds: string[], now: number): boolean {
    return anyDue(this.db, kinds, now);
  }

  /** Runs fn in one transaction: a pass of the runner writes its settled jobs and its claims with one commit. */
  batch(fn: () => void): void {
    this.inTransaction(fn);
  }

  completeAll(ids: number[]): void {
    deleteJobs(this.db, ids);
  }

  /**
   * Queues the job again for `runAt`. A failure keeps the attempt its claim counted; a reschedule
   * the handler asked for (a deferral, a rate's next slot) gives it back: waiting is not failing,
   * and however often a job waits, its failures still get every attempt.
   */
  retry(id: number, runAt: number, error: string | null, countsAsAttempt = true): void {
    requeueJob(this.db, id, runAt, error, !countsAsAttempt, this.clock.now());
  }

  fail(id: number, error: string): void {
    failJob(this.db, id, error, this.clock.now());
  }

  /** Jobs left running by a stopped or killed process go back to the queue. */
  recover(): number {
    return requeueRunning(this.db);
  }

  /** The earliest run_at after `after` among queued jobs of `kinds`: one index seek per kind, lane and project. */
  nextRunAfter(kinds: string[], after: number): number | null {
    let next: number | null = null;
    for (const kind of kinds) {
      for (let lane = 0; lane < LANES.length; lane++) {
        const runAt = nextRunAt(this.db, kind, lane, after);
        if (runAt !== null && (next === null || runAt < next)) next = runAt;
      }
    }
    return next;
  }
}

/** The projects in id order, starting after `last` (the rotation's next turn); null sorts first, as in SQL. */
function rotated(projects: (string | null)[], last: string | null | undefined): (string | null)[] {
  if (last === undefined) return projects;
  const after = projects.findIndex((p) => last === null ? p !== null : p !== null && p > last);
  return after <= 0 ? projects : projects.slice(after).concat(projects.slice(0, after));
}
