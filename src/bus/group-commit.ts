// Group commit: writes queued during one turn of the event loop run in one transaction, each in
// its own savepoint so a failing one rolls back alone. Under concurrent load the cost of a commit
// (the WAL write) is shared by every request of the turn instead of paid by each.
import type { Bus } from './bus.js';

/** Runs fn in the next group transaction; settles once that transaction has committed. */
export type Committer = <T>(fn: () => T) => Promise<T>;

interface Pending {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * When a committer writes: by default at the end of the turn. Writes nobody waits on quickly (the
 * outcomes of deliveries) can wait up to `waitMs` for `items` of them, so one commit carries many.
 */
export interface Batching {
  items: number;
  waitMs: number;
}

export function createCommitter(bus: Bus, batching?: Batching): Committer {
  let queue: Pending[] = [];
  let timer: NodeJS.Timeout | null = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = queue;
    queue = [];
    const outcomes: Outcome[] = [];
    try {
      bus.tx(() => {
        for (const item of batch) {
          try {
            outcomes.push({ ok: true, value: bus.tx(item.fn) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // the commit itself failed: nothing of the batch was written
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return <T>(fn: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (!batching && queue.length === 0) setImmediate(flush);
      queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!batching) return;
      if (queue.length === batching.items) setImmediate(flush);
      else if (queue.length === 1) timer = setTimeout(flush, batching.waitMs);
    });
}

const committers = new WeakMap<Bus, Committer>();

/** The one committer of a bus, so that every route batching its writes shares the commits. */
export function groupCommit(bus: Bus): Committer {
  let committer = committers.get(bus);
  if (!committer) committers.set(bus, (committer = createCommitter(bus)));
  return committer;
}
