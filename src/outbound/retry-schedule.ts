const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Waits after the n-th deferral: growing, then every 8 hours until delivery.maxAge runs out. */
const STEPS = [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 1 * HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];

export function retryDelayMs(deferrals: number): number {
  return STEPS[Math.min(Math.max(deferrals, 1), STEPS.length) - 1]!;
}
