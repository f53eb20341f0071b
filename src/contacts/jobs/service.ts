import { randomUUID } from 'node:crypto';
import type { Core } from '../../core.js';
import { ApiError, notFound } from '../../errors.js';
import type { JobHandler } from '../../jobs/runner.js';
import { findContactJob, insertContactJob, saveContactJob, type ContactJob, type ContactJobType } from './store.js';

/** The payload of every contact job's durable work row. */
export interface ContactJobPayload {
  jobId: string;
}

/** Failed rows or ids kept in a job's result; the `failed` count goes on past it. */
export const MAX_REPORTED_ERRORS = 1000;

/** Creates the job record and its durable work row in one transaction: answered 202, it is done after any crash. */
export function createContactJob<I, R>(
  core: Core,
  projectId: string,
  type: ContactJobType,
  kind: string,
  input: I,
  result: R,
  id: string = randomUUID(),
): ContactJob<I, R> {
  const now = core.clock.now();
  const job: ContactJob<I, R> = {
    id,
    projectId,
    type,
    state: 'queued',
    progress: 0,
    input,
    position: 0,
    result,
    error: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  core.bus.tx(() => {
    insertContactJob(core.db, job);
    const payload: ContactJobPayload = { jobId: job.id };
    core.jobs.enqueue(kind, payload, { projectId, uniqueKey: `${kind}:${job.id}` });
  });
  return job;
}

/** The job of this project, if it is one of `types` (an import id is not a bulk job, and the other way round). */
export function getContactJob(core: Core, projectId: string, id: string, types: readonly ContactJobType[]): ContactJob {
  const job = findContactJob(core.db, projectId, id);
  if (!job || !types.includes(job.type)) throw notFound('Job');
  return job;
}

/** A job being worked on: its committed position and totals, written with each batch. */
export class ContactJobRun<I, R> {
  position: number;
  result: R;

  constructor(
    private readonly core: Core,
    readonly job: ContactJob<I, R>,
  ) {
    this.position = job.position;
    this.result = job.result;
  }

  /**
   * Runs `apply` on a copy of the totals and saves them with the new position and progress, all in
   * one transaction: a crash leaves either the whole batch or none of it, never a position that lies.
   */
  commit(position: number, progress: number, apply: (result: R) => void): void {
    const draft = structuredClone(this.result);
    this.core.bus.tx(() => {
      apply(draft);
      this.save('running', Math.min(progress, 99), position, draft, null);
    });
    this.result = draft;
    this.position = position;
  }

  start(): void {
    if (this.job.state === 'queued') this.save('running', this.job.progress, this.position, this.result, null);
  }

  complete(): void {
    this.save('completed', 100, this.position, this.result, null);
    this.core.log.info(`contact ${this.job.type} finished`, { jobId: this.job.id, projectId: this.job.projectId, ...this.result });
  }

  fail(message: string): void {
    this.save('failed', this.job.progress, this.position, this.result, message);
    this.core.log.warn(`contact ${this.job.type} failed`, { jobId: this.job.id, projectId: this.job.projectId, error: message, ...this.result });
  }

  private save(state: ContactJob['state'], progress: number, position: number, result: R, error: string | null): void {
    const now = this.core.clock.now();
    const finished = state === 'completed' || state === 'failed';
    saveContactJob(this.core.db, this.job.projectId, this.job.id, { state, progress, position, result, error, at: now, finishedAt: finished ? now : null });
    this.job.progress = progress;
  }
}

/** A failure no retry can mend (the uploaded file is gone): the job fails at once. */
export class PermanentJobFailure extends Error {}

/** An ApiError thrown for one row or id is that item's failure; anything else (the store) fails the batch. */
export function itemFailure(err: unknown): string {
  if (!(err instanceof ApiError)) throw err;
  const fields = err.extra.errors ?? [];
  return fields.length > 0 ? fields.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ') : err.message;
}

/**
 * Contact jobs of a kind running at once: one per project (the runner's default share of two), so
 * another project's job starts beside a project's backlog instead of after it.
 */
const CONTACT_JOB_PLACES = 2;

/**
 * The handler of a contact job kind: runs `work` from the committed position. A failure retries
 * (the runner's backoff) from that position; the last attempt's failure fails the job.
 */
export function contactJobHandler<I, R>(
  core: Core,
  work: (run: ContactJobRun<I, R>) => Promise<void>,
  /** Runs once the job has ended, completed or failed (never before its end is saved). */
  ended: (job: ContactJob<I, R>) => Promise<void> = async () => undefined,
): JobHandler<ContactJobPayload> {
  return {
    concurrency: CONTACT_JOB_PLACES,
    perProject: 1,
    async run(job) {
      const record = job.projectId ? (findContactJob(core.db, job.projectId, job.payload.jobId) as ContactJob<I, R> | null) : null;
      if (!record) return;
      if (record.state === 'completed' || record.state === 'failed') return ended(record);
      const run = new ContactJobRun(core, record);
      run.start();
      try {
        await work(run);
        run.complete();
      } catch (err) {
        if (!(err instanceof PermanentJobFailure) && job.attempts < job.maxAttempts) throw err;
        run.fail(err instanceof Error ? err.message : String(err));
      }
      await ended(record);
    },
  };
}
