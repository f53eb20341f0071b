// The thread pool when a thread dies: which tasks fail, how, and what the next thread takes on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createThreadPool, ThreadDied } from '../src/threads/pool.js';
import type { WorkerOps } from '../src/workers/compose.js';

/** A small composition: what an ordinary task of the compose threads looks like. */
const input = (n: number) => ({
  emailId: `0191e7a4-0000-7000-8000-${String(n).padStart(12, '0')}`,
  hostname: 'mx.postmill.test',
  date: new Date(0),
  from: { email: 'a@acme.test', name: null },
  to: { email: `r${n}@rcpt.test`, name: null },
  replyTo: null,
  subject: `s${n}`,
  html: `<p>${n}</p>`,
  attachments: [],
  headers: {},
  unsubscribe: null,
  campaign: null,
});

const settle = <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: Error) => ({ error }));

test('one task at a time: the task that exhausts the thread fails for good (413), the ones waiting run on its replacement', async () => {
  const pool = createThreadPool<WorkerOps>('compose', 1, { resourceLimits: { maxOldGenerationSizeMb: 32 }, tasksPerThread: 1 });
  try {
    const exhausting = settle(pool.run('exhaustHeap', { afterMs: 0 }));
    const waiting = [1, 2, 3].map((n) => settle(pool.run('compose', input(n))));
    const { error } = (await exhausting) as { error: ThreadDied };
    assert.instance(error, ThreadDied);
    assert.ok(error.own && error.outOfMemory);
    assert.is(error.status, 413);
    for (const result of await Promise.all(waiting)) assert.ok('value' in result, `served: ${'error' in result ? result.error.message : ''}`);
  } finally {
    await pool.close();
  }
});

test('several tasks at a time: all those on the thread that died fail as retryable (503), none of them is blamed', async () => {
  const deaths: [string, number][] = [];
  const pool = createThreadPool<WorkerOps>('compose', 1, { resourceLimits: { maxOldGenerationSizeMb: 32 }, onDeath: (reason, tasks) => deaths.push([reason, tasks]) });
  try {
    const exhausting = settle(pool.run('exhaustHeap', { afterMs: 300 }));
    const holding = settle(pool.run('exhaustHeap', { afterMs: 60_000 }));
    for (const result of [await exhausting, await holding]) {
      const { error } = result as { error: ThreadDied };
      assert.instance(error, ThreadDied);
      assert.not.ok(error.own);
      assert.is(error.status, 503);
      assert.is(error.extra.headers?.['Retry-After'], '1');
    }
    assert.is(deaths.length, 1);
    assert.is(deaths[0]![1], 2);
    assert.ok('value' in (await settle(pool.run('compose', input(4)))), 'a new thread serves the next task');
  } finally {
    await pool.close();
  }
});

test('a closed pool refuses new tasks and fails the waiting and running ones (retryable) instead of leaving them hanging', async () => {
  const pool = createThreadPool<WorkerOps>('compose', 1, { tasksPerThread: 1 });
  const running = settle(pool.run('exhaustHeap', { afterMs: 60_000 }));
  const queued = settle(pool.run('compose', input(5)));
  await pool.close();
  assert.ok('error' in (await queued));
  const { error } = (await running) as { error: ThreadDied };
  assert.is(error.status, 503, 'a task stopped by the close may be sent again');
  assert.ok('error' in (await settle(pool.run('compose', input(6)))));
});

test.run();
