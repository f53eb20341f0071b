import type { Clock } from '../clock.js';
import type { JobQueue } from './queue.js';
import type { JobHandler } from './runner.js';

/** A job that runs every `everyMs`: one durable row (unique by kind) that reschedules itself. */
export function recurring(clock: Clock, everyMs: number, work: () => void | Promise<void>): JobHandler {
  return {
    concurrency: 1,
    run: async () => {
      await work();
      return { retryAt: clock.now() + everyMs };
    },
  };
}

/**
 * Makes sure the row of a recurring kind exists; safe to call at every start. `atStart`: an
 * existing row due later runs at `firstRunAt` too (a check that must run at every start).
 */
export function scheduleRecurring(queue: JobQueue, kind: string, firstRunAt: number, opts: { atStart?: boolean } = {}): void {
  const uniqueKey = `recurring:${kind}`;
  queue.enqueue(kind, {}, { uniqueKey, runAt: firstRunAt, maxAttempts: 1_000_000 });
  if (opts.atStart) queue.bringForward(uniqueKey, firstRunAt);
}
