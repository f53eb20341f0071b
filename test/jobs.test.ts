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

const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const dirs: string[] = [];

function fresh(): { db: Db; clock: ShiftableClock; queue: JobQueue; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-jobs-'));
  dirs.push(dir);
  const db = openStore(dir);
  const clock = new ShiftableClock();
  return { db, clock, queue: new JobQueue(db, clock), dir };
}

/** Polls until `check` is true; bounded so a broken runner fails instead of hanging. */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const jobRows = (db: Db) => db.prepare('SELECT kind, status, attempts, last_error FROM jobs ORDER BY id').all() as { kind: string; status: string; attempts: number; last_error: string | null }[];

test.after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('a queued job runs once and its row is removed', async () => {
  const { db, clock, queue } = fresh();
  const runner = new JobRunner(queue, clock, log);
  const seen: unknown[] = [];
  runner.register<{ n: number }>('test.echo', { concurrency: 2, run: async (job) => void seen.push(job.payload.n) });
  runner.start();
  queue.enqueue('test.echo', { n: 1 });
  queue.enqueue('test.echo', { n: 2 });
  await until(() => seen.length === 2);
  await until(() => jobRows(db).length === 0);
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
  await until(() => calls === 1 && jobRows(db)[0]?.status === 'queued');
  await new Promise((r) => setTimeout(r, 50));
  assert.is(calls, 1, 'not retried before its time');
  clock.advance(10_000);
  runner.wake();
  await until(() => calls === 2 && jobRows(db)[0]?.status === 'queued');
  clock.advance(60_000);
  runner.wake();
  await until(() => jobRows(db)[0]?.status === 'failed');
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
  await new Promise((r) => setTimeout(r, 50));
  assert.is(runs, 0);
  clock.advance(60_000);
  runner.wake();
  await until(() => runs === 1);
  clock.advance(5 * 60_000);
  runner.wake();
  await until(() => runs === 2 && jobRows(db).length === 0);
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
  await until(() => runs === 6);
  await until(() => jobRows(db)[0]?.status === 'queued' && jobRows(db)[0]?.last_error === 'then it fails');
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
  await new Promise((r) => setTimeout(r, 20)); // the first full pass has armed the long safety timer
  const enqueuedAt = clock.now();
  queue.enqueue('test.soon', {}, { runAt: enqueuedAt + 100 });
  await until(() => runsAt.length === 2 && jobRows(db).length === 0, 3000);
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
  runner.register('test.slow', {
    concurrency: 3,
    run: async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      done++;
    },
  });
  runner.start();
  for (let i = 0; i < 20; i++) queue.enqueue('test.slow', {});
  await until(() => done === 20);
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
  await until(() => seen.length === 1);
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
  await until(() => started.length === 2);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(started, ['backlog', 'backlog'], 'two places stay free while the backlog waits');
  queue.enqueue('test.held', {}, { projectId: 'other' });
  await until(() => started.length === 3);
  assert.is(started[2], 'other', 'the other project starts at once, ahead of the backlog');
  release();
  await until(() => started.length === 11 && jobRows(db).length === 0);
  assert.is(peak.get('backlog'), 2);

  const system = fresh();
  const systemRunner = new JobRunner(system.queue, system.clock, log);
  let running = 0;
  let most = 0;
  systemRunner.register('test.system', {
    concurrency: 3,
    perProject: 1,
    run: async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    },
  });
  for (let i = 0; i < 6; i++) system.queue.enqueue('test.system', {});
  systemRunner.start();
  await until(() => jobRows(system.db).length === 0);
  assert.is(most, 3, 'jobs of no project take every place');
  await Promise.all([runner.stop(1000), systemRunner.stop(1000)]);
  db.close();
  system.db.close();
});

test.run();
