/** Time comes from here only, so tests can move it instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that runs with real time plus an offset that can only grow (moved by tests through the test hook). */
export class ShiftableClock implements Clock {
  constructor(private offset = 0) {}

  private readonly listeners: (() => void)[] = [];
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    if (ms <= 0) return;
    this.offset += ms;
    for (const fn of this.listeners) fn();
  }
  get shiftedBy(): number {
    return this.offset;
  }

  /** Timers that wait for a clock time (the job runner) re-arm when time jumps. */
  onAdvance(fn: () => void): void {
    this.listeners.push(fn);
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** An optional time as the API writes it: ISO 8601, or null. */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
