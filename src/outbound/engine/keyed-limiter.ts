import PQueue from 'p-queue';

/**
 * How many tasks of one key (here: one destination domain) run at once: a window that starts at
 * `initial` and moves between 1 and `limit` with what the destination answers, as Postfix's slow
 * start does (initial_destination_concurrency 5, default_destination_concurrency_limit 20).
 */
export interface Window {
  initial: number;
  limit: number;
}

/**
 * What a finished task says of its destination: `served` (it answered, whatever the answer) grows
 * the window by one for each window's worth while tasks wait; `refused` (unreachable, or a 421
 * "too busy") shrinks it by one at once; `none` leaves it.
 */
export type Feedback = 'served' | 'refused' | 'none';

export interface KeyedLimiter {
  /** Waiting tasks of a higher `priority` start first (default 0); equal ones in order. */
  run<T>(key: string, task: () => Promise<T>, priority?: number, feedback?: (result: T) => Feedback): Promise<T>;
}

interface Destination {
  queue: PQueue;
  window: Window;
  /** Served tasks counted toward the next step up. */
  credit: number;
}

/** Windows learnt of destinations gone idle, kept this long so that a busy domain between two batches keeps its pace. */
const REMEMBER_MS = 5 * 60_000;
const MAX_REMEMBERED = 10_000;

const initialOf = (window: Window) => Math.max(1, Math.min(window.initial, window.limit));

/** `windowOf` may give a key a window of its own (a mailbox provider's connections); other keys take `defaultWindow`. */
export function createKeyedLimiter(defaultWindow: Window, windowOf: (key: string) => Window | undefined = () => undefined): KeyedLimiter {
  const busy = new Map<string, Destination>();
  const remembered = new Map<string, { size: number; until: number }>();

  function destinationFor(key: string): Destination {
    const existing = busy.get(key);
    if (existing) return existing;
    const learnt = remembered.get(key);
    remembered.delete(key);
    const window = windowOf(key) ?? defaultWindow;
    const initial = initialOf(window);
    const size = learnt && learnt.until > performance.now() ? Math.min(learnt.size, window.limit) : initial;
    const queue = new PQueue({ concurrency: size });
    const destination: Destination = { queue, window, credit: 0 };
    // Forget idle destinations so that every domain ever seen does not stay in memory; keep their window a while.
    queue.on('idle', () => {
      if (busy.get(key) !== destination) return;
      busy.delete(key);
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      if (queue.concurrency !== initial) remembered.set(key, { size: queue.concurrency, until: performance.now() + REMEMBER_MS });
    });
    busy.set(key, destination);
    return destination;
  }

  function adjust(destination: Destination, feedback: Feedback): void {
    const { queue, window } = destination;
    if (feedback === 'refused') {
      destination.credit = 0;
      queue.concurrency = Math.max(1, queue.concurrency - 1);
    } else if (feedback === 'served' && queue.size > 0 && queue.concurrency < window.limit && ++destination.credit >= queue.concurrency) {
      destination.credit = 0;
      queue.concurrency += 1;
    }
  }

  return {
    run: (key, task, priority = 0, feedback) => {
      const destination = destinationFor(key);
      return destination.queue.add(
        async () => {
          const result = await task();
          if (feedback) adjust(destination, feedback(result));
          return result;
        },
        { priority },
      );
    },
  };
}
