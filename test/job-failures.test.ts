// No job may end the process: whatever a handler throws, and wherever (its run, synchronously or
// not, its prepare, the claim around it), the job fails or waits with a reason and the runner goes on.
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

const logged: string[] = [];
const log: Logger = { debug() {}, info() {}, warn: (msg) => void logged.push(msg), error: (msg) => void logged.push(msg) };
const escaped: unknown[] = [];
const onUncaught = (err: unknown) => void escaped.push(err);
const dirs: string[] = [];

test.before(() => void process.on('uncaughtException', onUncaught));
test.after(() => {
  process.off('uncaughtException', onUncaught);
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function fresh(): { db: Db; queue: JobQueue; runner: JobRunner } {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-job-failures-'));
  dirs.push(dir);
  const db = openStore(dir);
  const clock = new ShiftableClock();
  const queue = new JobQueue(db, clock);
  return { db, queue, runner: new JobRunner(queue, clock, log) };
}

const rows = (db: Db) => db.prepare('SELECT kind, status, last_error FROM jobs ORDER BY id').all() as { kind: string; status: string; last_error: string | null }[];

/** Polls until `check` is true, bounded; a failure names `what` and the job rows it saw last. */
const until = (db: Db, check: () => boolean, what: string) => eventually((saw) => (saw(rows(db)), check()), 10_000, what, 5);

test('a handler that throws synchronously fails its job with the reason; the next jobs still run', async () => {
  const { db, queue, runner } = fresh();
  const ran: number[] = [];
  runner.register<{ n: number }>('test.throws', {
    concurrency: 1,
    // not async: the throw happens while the runner launches it
    run: (job) => {
      if (job.payload.n === 1) throw new TypeError('Invalid character in header content ["x-name"]');
      ran.push(job.payload.n);
      return Promise.resolve();
    },
  });
  runner.start();
  queue.enqueue('test.throws', { n: 1 }, { maxAttempts: 1 });
  queue.enqueue('test.throws', { n: 2 });
  await until(db, () => ran.includes(2), 'the job after the throwing one');
  await runner.stop(1000);
  assert.equal(rows(db), [{ kind: 'test.throws', status: 'failed', last_error: 'Invalid character in header content ["x-name"]' }]);
  assert.equal(escaped, []);
  db.close();
});

test("a handler whose prepare throws: the batch's jobs run anyway (each reads for itself), nothing escapes", async () => {
  const { db, queue, runner } = fresh();
  const ran: number[] = [];
  runner.register<{ n: number }>('test.prepare', {
    concurrency: 4,
    prepare: () => {
      throw new Error('no such table: emails');
    },
    run: async (job) => void ran.push(job.payload.n),
  });
  runner.start();
  for (const n of [1, 2, 3]) queue.enqueue('test.prepare', { n });
  await until(db, () => ran.length === 3, 'three jobs run');
  await until(db, () => rows(db).length === 0, 'their rows removed');
  await runner.stop(1000);
  assert.ok(logged.includes('job prepare failed, each job reads for itself'));
  assert.equal(escaped, []);
  db.close();
});

test('a claim the store refuses is logged and tried again; nothing escapes and the jobs run', async () => {
  const { db, queue, runner } = fresh();
  const ran: number[] = [];
  runner.register<{ n: number }>('test.claim', { concurrency: 1, run: async (job) => void ran.push(job.payload.n) });
  const claim = queue.claim.bind(queue);
  let refusals = 2;
  queue.claim = (...args: Parameters<JobQueue['claim']>) => {
    if (refusals-- > 0) throw new Error('database is locked');
    return claim(...args);
  };
  runner.start();
  queue.enqueue('test.claim', { n: 1 });
  await until(db, () => ran.length === 1, 'the job once claims work again');
  await runner.stop(1000);
  assert.ok(logged.includes('job claim failed, trying again'));
  assert.equal(escaped, []);
  db.close();
});

test.run();
