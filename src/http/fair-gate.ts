import { ApiError } from '../errors.js';

/** Seconds a refused caller is told to wait before trying again. */
const RETRY_AFTER_S = 5;

/**
 * Turns for expensive requests: at most `slots` at once in the daemon and one per key (project),
 * waiting keys served in rotation, so one project's heavy requests never starve another's. Past
 * `maxWaiting` waiting requests the gate refuses with 429 rather than hold their memory.
 */
export class FairGate {
  private running = 0;
  private readonly busy = new Set<string>();
  /** Waiting requests by key; a Map keeps keys in the order they began to wait (the rotation). */
  private readonly waiting = new Map<string, ((release: () => void) => void)[]>();
  private waitingCount = 0;

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
  ) {}

  /** Resolves with the release function once it is this request's turn. */
  async acquire(key: string): Promise<() => void> {
    if (this.running < this.slots && !this.busy.has(key)) return this.enter(key);
    if (this.waitingCount >= this.maxWaiting) {
      throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many large requests are in progress', {
        details: { retryAfter: RETRY_AFTER_S },
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
        suggestion: 'Retry shortly, or send large messages to fewer recipients per request',
      });
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push(resolve);
      this.waiting.set(key, queue);
      this.waitingCount++;
    });
  }

  private enter(key: string): () => void {
    this.running++;
    this.busy.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.busy.delete(key);
      this.next();
    };
  }

  /** Wakes the first waiting key that is not busy, and moves it to the end of the rotation. */
  private next(): void {
    if (this.running >= this.slots) return;
    for (const [key, queue] of this.waiting) {
      if (this.busy.has(key)) continue;
      const wake = queue.shift()!;
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue);
      this.waitingCount--;
      // Entered here, not when the waiter resumes: nobody can take the turn in between.
      wake(this.enter(key));
      return;
    }
  }
}
