import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { JobQueue } from '../src/jobs/queue.js';
import { JobRunner } from '../src/jobs/runner.js';
import type { Logger } from '../src/log.js';
import { openStore, type Db } from '../src/store/db.js';
import { eventually } from './helpers/eventually.js';

const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const dirs: string[] = [];

function fresh(): { db: Db; clock: ShiftableClock; queue: JobQueue; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-jobs-'));
  dirs.push(dir);
  const db = openStore(dir);
  const clock = new ShiftableClock();
  return { db, clock, queue: new JobQueue(db, clock), dir };
}

const jobRows = (db: Db) => db.prepare('SELECT kind, status, attempts, last_error FROM jobs ORDER BY id').all() as { kind: string; status: string; attempts: number; last_error: string | null }[];

/** Polls until `check` is true, bounded; a failure names `what` and the job rows it saw last. */
const until = (db: Db, check: () => boolean, what: string) => eventually((saw) => (saw(jobRows(db)), check()), 10_000, what, 5);

type Busy = ReturnType<JobRunner['busy']>;
/** Waits until what `runner.busy()` answers is `done`; a failure names `what` and the last answer. */
const runnerUntil = (runner: JobRunner, done: (busy: Busy) => boolean, what: string) =>
  eventually(
    (saw) => {
      const busy = runner.busy();
      saw(busy);
      return done(busy);
    },
    10_000,
    what,
    5,
  );
/**
 * Nothing running, nothing due, no pass pending (what the daemon's /_test/idle hook waits for): a
 * check that something did not happen comes after this.
 */
const settled = (runner: JobRunner) => runnerUntil(runner, (b) => b.running.length === 0 && !b.due && !b.pending, 'the runner idle');
/** The runner's last pass is over and none is pending: while its running jobs hold their places, it claims nothing more. */
const passed = (runner: JobRunner) => runnerUntil(runner, (b) => !b.pending, 'no pass of the runner pending');

test.after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('a queued job runs once and its row is removed', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  const seen: unknown[] = [];
  runner.register<{ n: number }>('test.echo', { concurrency: 2, run: async (job) => void seen.push(job.payload.n) });
  runner.start();
  queue.enqueue('test.echo', { n: 1 });
  queue.enqueue('test.echo', { n: 2 });
  await until(db, () => seen.length === 2, 'both jobs run');
  await until(db, () => jobRows(db).length === 0, 'their rows removed');
  await runner.stop(1000);
  db.close();
});

test('unique keys make enqueueing idempotent', () => {
  const { db, queue } = fresh();
  assert.ok(queue.enqueue('test.once', {}, { uniqueKey: 'k1' }));
  assert.is(queue.enqueue('test.once', {}, { uniqueKey: 'k1' }), null);
  assert.is(jobRows(db).length, 1);
  db.close();
});

test('a failing job retries on the backoff schedule as the clock moves, then fails for good', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  let calls = 0;
  runner.register('test.flaky', {
    concurrency: 1,
    run: async () => {
      calls++;
      throw new Error('boom ' + calls);
    },
  });
  runner.start();
  queue.enqueue('test.flaky', {}, { maxAttempts: 3 });
  await until(db, () => calls === 1 && jobRows(db)[0]?.status === 'queued', 'the first attempt failed and queued again');
  await settled(runner);
  assert.is(calls, 1, 'not retried before its time');
  clock.advance(9_000);
  runner.wake();
  await settled(runner);
  assert.is(calls, 1, 'nor a second before its 10 s');
  clock.advance(1_000);
  runner.wake();
  await until(db, () => calls === 2 && jobRows(db)[0]?.status === 'queued', 'the second attempt failed and queued again');
  clock.advance(60_000);
  runner.wake();
  await until(db, () => jobRows(db)[0]?.status === 'failed', 'the third attempt failed for good');
  assert.is(calls, 3);
  assert.is(jobRows(db)[0]!.last_error, 'boom 3');
  await runner.stop(1000);
  db.close();
});

test('a handler can reschedule itself; delayed jobs wait for their time', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  let runs = 0;
  runner.register('test.later', { concurrency: 1, run: async () => (++runs < 2 ? { retryAt: clock.now() + 5 * 60_000 } : undefined) });
  runner.start();
  queue.enqueue('test.later', {}, { runAt: clock.now() + 60_000 });
  await settled(runner);
  assert.is(runs, 0);
  clock.advance(60_000);
  runner.wake();
  await until(db, () => runs === 1, 'the first run when its time came');
  clock.advance(5 * 60_000);
  runner.wake();
  await until(db, () => runs === 2 && jobRows(db).length === 0, 'the rescheduled run, and the row removed');
  await runner.stop(1000);
  db.close();
});

test('reschedules are not attempts: a job that waited more often than its attempts still gets every attempt at failing', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  let runs = 0;
  runner.register('test.waits', { concurrency: 1, run: async () => (++runs <= 5 ? { retryAt: clock.now() } : Promise.reject(new Error('then it fails'))) });
  runner.start();
  queue.enqueue('test.waits', {}, { maxAttempts: 2 });
  await until(db, () => runs === 6, 'five waits and a failure');
  await until(db, () => jobRows(db)[0]?.status === 'queued' && jobRows(db)[0]?.last_error === 'then it fails', 'the failure written, the job queued again');
  assert.is(jobRows(db)[0]!.attempts, 1, 'five waits and one failure: one attempt used, one left');
  await runner.stop(1000);
  db.close();
});

test('future jobs and reschedules start on their own when their time comes (the timer, no wake)', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  const runsAt: number[] = [];
  runner.register('test.soon', { concurrency: 1, run: async () => (runsAt.push(clock.now()) < 2 ? { retryAt: clock.now() + 150 } : undefined) });
  runner.start();
  await settled(runner); // the first full pass has run and armed the long safety timer
  const enqueuedAt = clock.now();
  queue.enqueue('test.soon', {}, { runAt: enqueuedAt + 100 });
  await until(db, () => runsAt.length === 2 && jobRows(db).length === 0, 'the job and its reschedule run on their own');
  assert.ok(runsAt[0]! >= enqueuedAt + 100, 'not before its time');
  assert.ok(runsAt[1]! >= runsAt[0]! + 150, 'the reschedule waited too');
  await runner.stop(1000);
  db.close();
});

test('concurrency per kind is bounded', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  let active = 0;
  let peak = 0;
  let done = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  runner.register('test.slow', {
    concurrency: 3,
    run: async () => {
      peak = Math.max(peak, ++active);
      await gate;
      active--;
      done++;
    },
  });
  runner.start();
  for (let i = 0; i < 20; i++) queue.enqueue('test.slow', {});
  await until(db, () => active === 3, 'three jobs holding their places');
  await passed(runner);
  assert.is(active, 3, 'no fourth while three run');
  release();
  await until(db, () => done === 20, 'all twenty done');
  assert.is(peak, 3);
  await runner.stop(1000);
  db.close();
});

test('jobs left running by a killed process run again after restart', async () => {
  const { db, clock, queue, dir } = fresh();
  queue.enqueue('test.crash', { n: 7 });
  queue.claim('test.crash', 10, 60_000); // claimed, then the process "dies"
  db.close();
  const db2 = openStore(dir);
  const queue2 = new JobQueue(db2, clock);
  const runner = new JobRunner(queue2, clock, log);
  const seen: number[] = [];
  runner.register<{ n: number }>('test.crash', { concurrency: 1, run: async (job) => void seen.push(job.payload.n) });
  runner.start();
  await until(db2, () => seen.length === 1, 'the recovered job run');
  assert.equal(seen, [7]);
  await runner.stop(1000);
  db2.close();
});

test('a claim shares its places among projects in rotation, each project\'s oldest first; the next claim starts after the last served', () => {
  const { db, queue } = fresh();
  for (const project of ['p1', 'p2', 'p3']) for (let i = 0; i < 4; i++) queue.enqueue('test.fair', { project, i }, { projectId: project });
  const take = (limit: number) => queue.claim('test.fair', limit, 60_000).map((j) => `${j.projectId}:${(j.payload as { i: number }).i}`);
  assert.equal(take(6).sort(), ['p1:0', 'p1:1', 'p2:0', 'p2:1', 'p3:0', 'p3:1'], 'two each, not six of the oldest project');
  assert.equal(take(1), ['p1:2']);
  assert.equal(take(1), ['p2:2'], 'the rotation goes on where the last claim stopped');
  assert.equal(take(2).sort(), ['p1:3', 'p3:2']);
  assert.equal(take(5).sort(), ['p2:3', 'p3:3'], 'what one project lacks goes to the others');
  db.close();
});

test('per project at most perProject jobs of a kind run at once, the other places wait for other projects; jobs of no project are not counted', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  const active = new Map<string | null, number>();
  const peak = new Map<string | null, number>();
  const started: (string | null)[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  runner.register('test.held', {
    concurrency: 4,
    perProject: 2,
    run: async (job) => {
      started.push(job.projectId);
      active.set(job.projectId, (active.get(job.projectId) ?? 0) + 1);
      peak.set(job.projectId, Math.max(peak.get(job.projectId) ?? 0, active.get(job.projectId)!));
      await gate;
      active.set(job.projectId, active.get(job.projectId)! - 1);
    },
  });
  for (let i = 0; i < 10; i++) queue.enqueue('test.held', {}, { projectId: 'backlog' });
  runner.start();
  await until(db, () => started.length === 2, 'two backlog jobs started');
  await passed(runner);
  assert.equal(started, ['backlog', 'backlog'], 'two places stay free while the backlog waits');
  queue.enqueue('test.held', {}, { projectId: 'other' });
  await until(db, () => started.length === 3, "the other project's job started");
  assert.is(started[2], 'other', 'the other project starts at once, ahead of the backlog');
  release();
  await until(db, () => started.length === 11 && jobRows(db).length === 0, 'every job run, every row removed');
  assert.is(peak.get('backlog'), 2);

  const system = fresh();
  const systemRunner = new JobRunner(system.queue, system.clock, log);
  let running = 0;
  let most = 0;
  let releaseSystem!: () => void;
  const systemGate = new Promise<void>((r) => (releaseSystem = r));
  systemRunner.register('test.system', {
    concurrency: 3,
    perProject: 1,
    run: async () => {
      most = Math.max(most, ++running);
      await systemGate;
      running--;
    },
  });
  for (let i = 0; i < 6; i++) system.queue.enqueue('test.system', {});
  systemRunner.start();
  await until(system.db, () => running === 3, 'three jobs of no project running at once');
  releaseSystem();
  await until(system.db, () => jobRows(system.db).length === 0, 'every job of no project run');
  assert.is(most, 3, 'jobs of no project take every place');
  await Promise.all([runner.stop(1000), systemRunner.stop(1000)]);
  db.close();
  system.db.close();
});

test.run();
