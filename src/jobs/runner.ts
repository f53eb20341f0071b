import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { backoffMs } from './backoff.js';
import type { JobQueue } from './queue.js';
import type { Job } from './types.js';

/** What a handler may answer instead of finishing: run me again at this time (not counted as a failure). */
export interface Reschedule {
  retryAt: number;
  reason?: string;
}

export interface JobHandler<P = unknown> {
  concurrency: number;
  /** At most this many bulk-lane jobs at once (default: all of `concurrency`); the rest stays free for the transactional lane. */
  bulkConcurrency?: number;
  /**
   * At most this many jobs of one project at once (default: half of `concurrency`, at least one):
   * the other places stay free for other projects' work, which a backlog then never delays by more
   * than a job's wait for a free place. Jobs of no project are not counted.
   */
  perProject?: number;
  /**
   * Claim once this many places are free (default 1), or when a place has been free for
   * CLAIM_WAIT_MS: busy kinds claim, and write what became of their finished jobs, in batches.
   */
  claimBatch?: number;
  /**
   * Reads what just-claimed jobs need, inside the claim's transaction: one query for the batch
   * instead of one per job. A shortcut only: when it throws, `run` must read what it needs itself.
   */
  prepare?(jobs: Job<P>[]): void;
  /** Its failure, a rejection or a synchronous throw, is the job's: retried with backoff, then failed with that reason. */
  run(job: Job<P>): Promise<Reschedule | void>;
}

/** Jobs of a kind running now: all, bulk-lane ones, and per project. */
interface Running {
  all: number;
  bulk: number;
  byProject: Map<string | null, number>;
}

function count(byProject: Map<string | null, number>, projectId: string | null, delta: number): void {
  const n = (byProject.get(projectId) ?? 0) + delta;
  if (n > 0) byProject.set(projectId, n);
  else byProject.delete(projectId);
}

/** The places a project's jobs of the kind may still take: its share less what it runs; unbounded for jobs of no project. */
const projectRoom = (handler: JobHandler, running: Running) => {
  const cap = handler.perProject ?? Math.max(1, Math.ceil(handler.concurrency / 2));
  return (projectId: string | null) => (projectId === null ? handler.concurrency : cap - (running.byProject.get(projectId) ?? 0));
};

const LEASE_MS = 10 * 60_000;
/** The longest a free place waits for others to free up before it is claimed for alone. */
const CLAIM_WAIT_MS = 20;
/** Finished jobs whose rows wait for the next claim; past this many they are written at once. */
const MAX_SETTLED = 256;
/** After a pass that failed, the next one waits this long. */
const RETRY_PASS_MS = 1000;
/** The longest sleep: a safety net for clock shifts and work enqueued by other processes. */
const MAX_SLEEP_MS = 30_000;

/**
 * Runs durable jobs: claims due rows per kind up to its concurrency (transactional lane first,
 * projects in rotation, each within its share), wakes at the next run_at. What became of finished
 * jobs is written with the next pass's claims, in one transaction: one commit per pass, however
 * many jobs finished since the last one.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, Running>();
  /** Finished jobs whose rows go with the next claims: the completed ones (deleted together), and the others' updates. */
  private completed: number[] = [];
  private settled: (() => void)[] = [];
  /** Kinds waiting for more free places (claimBatch), with the timer that ends the wait. */
  private readonly batching = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires: the earliest future run_at known, found by the last full pass or told since. */
  private timerAt: number | null = null;
  private scheduled = false;
  /** Kinds that may have new work since the last pass (an enqueue, a freed slot). */
  private readonly dirty = new Set<string>();
  private everyKind = true;
  private stopped = true;
  private abandoned = false;

  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    queue.setListener((kind, runAt) => this.wake(kind, runAt));
  }

  register<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler as JobHandler);
    this.running.set(kind, { all: 0, bulk: 0, byProject: new Map() });
  }

  start(): void {
    const recovered = this.queue.recover();
    if (recovered > 0) this.log.info('jobs recovered after restart', { count: recovered });
    this.stopped = false;
    this.wake();
  }

  /**
   * Ask for a pass soon (coalesced); cheap to call often. With a kind, only that kind is looked at;
   * with `runAt`, a job of it becomes due then.
   */
  wake(kind?: string, runAt?: number): void {
    if (kind === undefined) this.everyKind = true;
    else this.dirty.add(kind);
    if (runAt !== undefined) this.expect(runAt);
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.guarded(() => this.tick());
    });
  }

  /** Stops claiming and waits for running jobs; whatever is unfinished at the deadline is recovered on next start. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const timer of this.batching.values()) clearTimeout(timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]).then(() => undefined), deadline]);
    this.queue.batch(() => this.writeSettled());
    this.abandoned = true;
  }

  private tick(): void {
    if (this.stopped) return;
    const full = this.everyKind;
    const kinds = full ? [...this.handlers.keys()] : [...this.dirty];
    this.everyKind = false;
    this.dirty.clear();
    // One instant for the pass: a job claimed as not yet due is then found as the next future one.
    const now = this.clock.now();
    this.claim(
      kinds.filter((kind) => this.mayClaim(kind)),
      now,
    );
    // Only a full pass looks for the next future job; in between, future jobs announce themselves (expect).
    if (full) this.armTimer(now);
  }

  /** One transaction: the rows of finished jobs, then the claims for `kinds`; launches what was claimed. */
  private claim(kinds: string[], now: number): void {
    if (kinds.length === 0 && this.completed.length + this.settled.length < MAX_SETTLED) return;
    const claimed: Job[] = [];
    this.queue.batch(() => {
      this.writeSettled();
      for (const kind of kinds) {
        const handler = this.handlers.get(kind)!;
        const running = this.running.get(kind)!;
        const free = handler.concurrency - running.all;
        const bulkFree = Math.max((handler.bulkConcurrency ?? handler.concurrency) - running.bulk, 0);
        const jobs = free > 0 ? this.queue.claim(kind, free, LEASE_MS, now, bulkFree, projectRoom(handler, running)) : [];
        if (jobs.length > 0) this.prepare(kind, handler, jobs);
        claimed.push(...jobs);
      }
    });
    for (const job of claimed) this.launch(job);
  }

  /** A handler's `prepare` is a shortcut: when it fails, each job of the batch reads what it needs itself. */
  private prepare(kind: string, handler: JobHandler, jobs: Job[]): void {
    try {
      handler.prepare?.(jobs);
    } catch (err) {
      this.log.warn('job prepare failed, each job reads for itself', { kind, error: err instanceof Error ? err.message : String(err) });
    }
  }

  /**
   * A pass run from a timer or the event loop: one that throws (the store refused the claim's
   * transaction) must not end the process. It is logged, and a full pass follows a little later.
   */
  private guarded(pass: () => void): void {
    try {
      pass();
    } catch (err) {
      this.log.error('job claim failed, trying again', { error: err instanceof Error ? err.message : String(err) });
      this.everyKind = true;
      if (!this.stopped) this.setTimer(this.clock.now() + RETRY_PASS_MS);
    }
  }

  /** Whether to claim for `kind` now: enough places are free, or a free place has waited CLAIM_WAIT_MS for others. */
  private mayClaim(kind: string): boolean {
    const handler = this.handlers.get(kind);
    const running = this.running.get(kind);
    if (!handler || !running) return false;
    const free = handler.concurrency - running.all;
    if (free <= 0) return false;
    if (free >= Math.min(handler.claimBatch ?? 1, handler.concurrency)) {
      clearTimeout(this.batching.get(kind));
      this.batching.delete(kind);
      return true;
    }
    if (!this.batching.has(kind)) {
      const timer = setTimeout(() => {
        this.batching.delete(kind);
        if (!this.stopped) this.guarded(() => this.claim([kind], this.clock.now()));
      }, CLAIM_WAIT_MS);
      timer.unref();
      this.batching.set(kind, timer);
    }
    return false;
  }

  private writeSettled(): void {
    const [completed, settled] = [this.completed, this.settled];
    this.completed = [];
    this.settled = [];
    if (completed.length > 0) this.queue.completeAll(completed);
    for (const write of settled) write();
  }

  /**
   * What still works or is due now: kinds with running jobs and whether a queued job is due; empty
   * when the runner is idle (nothing runs, nothing is due, no pass is pending). A test hook waits
   * for idle instead of sleeping; future jobs (timers, delays) do not count.
   */
  busy(): { running: string[]; due: boolean; pending: boolean } {
    const running = [...this.running].filter(([, r]) => r.all > 0).map(([kind]) => kind);
    const pending = this.scheduled || this.batching.size > 0 || this.completed.length + this.settled.length > 0;
    return { running, due: this.queue.hasDue([...this.handlers.keys()], this.clock.now()), pending };
  }

  private launch(job: Job): void {
    const handler = this.handlers.get(job.kind)!;
    const running = this.running.get(job.kind)!;
    const bulk = job.lane === 'bulk' ? 1 : 0;
    running.all++;
    running.bulk += bulk;
    count(running.byProject, job.projectId, 1);
    const done = this.execute(handler, job).finally(() => {
      running.all--;
      running.bulk -= bulk;
      count(running.byProject, job.projectId, -1);
      this.inFlight.delete(done);
      this.wake(job.kind);
    });
    this.inFlight.add(done);
  }

  private async execute(handler: JobHandler, job: Job): Promise<void> {
    try {
      const outcome = await handler.run(job);
      if (this.abandoned) return; // the store is closed; the row stays running and is recovered on next start
      if (outcome) this.retry(job, outcome.retryAt, outcome.reason ?? null, false);
      else this.completed.push(job.id);
    } catch (err) {
      if (this.abandoned) return;
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= job.maxAttempts) {
        this.log.error('job failed for good', { kind: job.kind, id: job.id, attempts: job.attempts, error: message });
        this.settled.push(() => this.queue.fail(job.id, message));
      } else {
        this.log.warn('job failed, will retry', { kind: job.kind, id: job.id, attempts: job.attempts, error: message });
        this.retry(job, this.clock.now() + backoffMs(job.attempts), message);
      }
    }
  }

  private retry(job: Job, at: number, reason: string | null, countsAsAttempt = true): void {
    this.settled.push(() => this.queue.retry(job.id, at, reason, countsAsAttempt));
    this.expect(at);
  }

  /** Due jobs waiting for a free slot are started by the wake of a finishing job, so only future ones set the timer. */
  private armTimer(now: number): void {
    this.setTimer(this.queue.nextRunAfter([...this.handlers.keys()], now) ?? now + MAX_SLEEP_MS);
  }

  /** A job becomes due at `at`: the timer fires by then, without asking the store. */
  private expect(at: number): void {
    if (this.stopped || at <= this.clock.now()) return;
    if (this.timerAt === null || at < this.timerAt) this.setTimer(at);
  }

  private setTimer(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    const now = this.clock.now();
    const wait = Math.min(Math.max(at - now, 0), MAX_SLEEP_MS);
    this.timerAt = now + wait;
    this.timer = setTimeout(() => {
      this.timerAt = null;
      this.everyKind = true;
      this.guarded(() => this.tick());
    }, wait);
    this.timer.unref();
  }
}
