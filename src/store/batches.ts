// Writes whose size grows with a project's data (a field removed from every contact, the events of
// a name, a cancelled campaign's pending emails) are made a bounded batch at a time, each its own
// transaction, with the event loop's turn between them: no request waits for more than one batch.

/** Rows one batch writes: a few to a few tens of ms, whatever the project holds. */
export const WRITE_BATCH = 1000;

/**
 * Lets the requests that arrived during a batch finish before the next batch. Twice: the group
 * commits those requests schedule (setImmediate) then run before this job continues.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Runs `batch` (one transaction that writes at most WRITE_BATCH rows and answers how many it
 * wrote) until one writes fewer, yielding between batches; answers the rows written in all.
 */
export async function inBatches(batch: () => number): Promise<number> {
  let total = 0;
  for (;;) {
    const written = batch();
    total += written;
    if (written < WRITE_BATCH) return total;
    await yieldToEventLoop();
  }
}
