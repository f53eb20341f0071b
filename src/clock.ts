/** Time comes from here only, so tests can move it instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that runs with real time plus an offset that can only grow. */
export class ShiftableClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    if (ms > 0) this.offset += ms;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
