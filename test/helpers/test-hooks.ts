import * as assert from 'uvu/assert';
import type { TestDaemon } from './daemon.js';

/** The admin token of test daemons: the test hooks (and /metrics) answer to it. */
export const ADMIN = 'test-admin-token-0123456789abcdef';

/** The config that turns the test hooks on: merge it into a test daemon's config to call the functions below. */
export const TEST_HOOKS = { adminToken: ADMIN, testHooks: true } as const;

/**
 * Waits until the daemon's job runner is idle: nothing runs and nothing is due now (jobs due later
 * do not count until the clock moves). What "nothing more happens" means, instead of a sleep: a
 * check that something did not happen is made after this. Fails naming what still ran.
 */
export async function idle(daemon: TestDaemon, timeoutMs = 30_000): Promise<void> {
  const r = await daemon.request('POST', '/_test/idle', { timeoutMs }, { key: ADMIN });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.ok(r.body.idle, `waited ${r.body.waitedMs} ms for the job runner to be idle; still running: ${JSON.stringify(r.body.running)}, a job due: ${r.body.due}`);
}

/** Moves the daemon's clock forward; answers its time after the move (ms since the epoch). */
export async function advance(daemon: TestDaemon, ms: number): Promise<number> {
  const r = await daemon.request('POST', '/_test/clock', { advanceMs: ms }, { key: ADMIN });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return Date.parse(r.body.now as string);
}

/** The tasks each compose pool was given since the daemon started, by op. */
export interface ThreadsServed {
  compose: Record<string, number>;
  heavy: Record<string, number>;
}

/** Which compose pool served which ops so far: what a test asserts instead of how long another request waited. */
export async function threadsServed(daemon: TestDaemon): Promise<ThreadsServed> {
  const r = await daemon.request('GET', '/_test/threads', undefined, { key: ADMIN });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body as ThreadsServed;
}

/** How many more tasks of `op` each pool was given between two readings. */
export const servedSince = (before: ThreadsServed, after: ThreadsServed, op: string) => ({
  compose: (after.compose[op] ?? 0) - (before.compose[op] ?? 0),
  heavy: (after.heavy[op] ?? 0) - (before.heavy[op] ?? 0),
});
