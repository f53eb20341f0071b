// What "the daemon keeps answering while it works" means without a clock: requests asked one after
// another while the work runs, each answered before the work ended. Work that held the event loop
// (or whatever a request needs) from start to end would let none through before its own answer;
// how long they waited is a benchmark's figure, which a loaded machine stretches.
import * as assert from 'uvu/assert';

/** A request asked again and again while the work runs; it must answer 200. */
export interface Probe {
  what: string;
  ask: () => Promise<{ status: number }>;
}

/** Between two rounds of probes: asked without a pause, they would take the CPU the work needs on a loaded machine. */
const ROUND_GAP_MS = 20;

/**
 * Runs until `work` settles, asking the probes in turn, a round every ROUND_GAP_MS at most; answers
 * the work's value and, per probe, how many of its answers came back while the work was still
 * running. A failed work is rethrown once the probes stop.
 */
export async function answeredMeanwhile<T>(work: Promise<T>, probes: Probe[]): Promise<{ value: T; meanwhile: Map<string, number> }> {
  let done = false;
  // settled, not rejected, while the probes run
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void settled.then(() => (done = true));
  const meanwhile = new Map(probes.map((p) => [p.what, 0]));
  while (!done) {
    for (const probe of probes) {
      if (done) break;
      const r = await probe.ask();
      assert.is(r.status, 200, probe.what);
      if (!done) meanwhile.set(probe.what, meanwhile.get(probe.what)! + 1);
    }
    // the gap ends early when the work does
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, ROUND_GAP_MS))]);
  }
  const outcome = await settled;
  if ('error' in outcome) throw outcome.error;
  return { value: outcome.value, meanwhile };
}

/** Every probe answered at least `times` times before the work ended. */
export function assertAnsweredMeanwhile(what: string, meanwhile: Map<string, number>, times = 1): void {
  for (const [probe, answered] of meanwhile) {
    assert.ok(answered >= times, `${what}: ${probe} answered ${answered} times while the work ran (at least ${times}); all: ${JSON.stringify(Object.fromEntries(meanwhile))}`);
  }
}
