const STEPS_MS = [10_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];

/** Wait before retrying a job that threw, by how many attempts it has had. */
export function backoffMs(attempts: number): number {
  return STEPS_MS[Math.min(Math.max(attempts, 1), STEPS_MS.length) - 1]!;
}
