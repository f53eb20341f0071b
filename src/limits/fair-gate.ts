import { ApiError } from '../errors.js';

/** Seconds a refused caller is told to wait before trying again. */
const RETRY_AFTER_S = 5;

export interface FairGateLimits {
  /** Turns at once in the daemon. */
  slots: number;
  /** Turns at once per key (default 1). */
  perKey?: number;
  /** Waiting requests in all; past it the gate refuses with 429 rather than hold their memory. */
  maxWaiting: number;
  /** Waiting requests per key (default: all of maxWaiting); keeps one key's pile from filling the waiting room. */
  maxWaitingPerKey?: number;
  /** The 429's message and suggestion. */
  refusal: { message: string; suggestion: string };
}

/**
 * Turns for shared work: at most `slots` at once in the daemon and `perKey` per key (project),
 * waiting keys served in rotation, so one project's backlog never starves another's. Waiting is
 * bounded in all and per key: past either bound the gate refuses with 429.
 */
export class FairGate {
  private running = 0;
  /** Turns held per key. */
  private readonly held = new Map<string, number>();
  /** Waiting requests by key; a Map keeps keys in the order they began to wait (the rotation). */
  private readonly waiting = new Map<string, ((release: () => void) => void)[]>();
  private waitingCount = 0;
  private readonly perKey: number;
  private readonly maxWaitingPerKey: number;

  constructor(private readonly limits: FairGateLimits) {
    this.perKey = limits.perKey ?? 1;
    this.maxWaitingPerKey = limits.maxWaitingPerKey ?? limits.maxWaiting;
  }

  /** Resolves with the release function once it is this request's turn. */
  async acquire(key: string): Promise<() => void> {
    if (this.running < this.limits.slots && this.isFree(key)) return this.enter(key);
    const queue = this.waiting.get(key) ?? [];
    if (this.waitingCount >= this.limits.maxWaiting || queue.length >= this.maxWaitingPerKey) {
      throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', this.limits.refusal.message, {
        details: { retryAfter: RETRY_AFTER_S },
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
        suggestion: this.limits.refusal.suggestion,
      });
    }
    return new Promise((resolve) => {
      queue.push(resolve);
      this.waiting.set(key, queue);
      this.waitingCount++;
    });
  }

  private isFree(key: string): boolean {
    return (this.held.get(key) ?? 0) < this.perKey;
  }

  private enter(key: string): () => void {
    this.running++;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const held = this.held.get(key)! - 1;
      if (held > 0) this.held.set(key, held);
      else this.held.delete(key);
      this.next();
    };
  }

  /** Wakes the first waiting key that has a turn free, and moves it to the end of the rotation. */
  private next(): void {
    if (this.running >= this.limits.slots) return;
    for (const [key, queue] of this.waiting) {
      if (!this.isFree(key)) continue;
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
