/**
 * Milliseconds of CPU the test process spent (all its threads, user and system) while `work` ran:
 * what a bound on the cost of a computation measures. Wall time would measure the machine's load
 * as well: beside other busy processes the same work takes several times as long by the clock.
 */
export async function cpuMs(work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
