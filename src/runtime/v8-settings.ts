// The daemon's V8 settings, made once by the main thread before it starts any thread: V8 flags are
// process-wide, must not change while other threads run, and reach every heap created afterwards.
import { setFlagsFromString } from 'node:v8';

/**
 * - `--expose-gc`: a thread that just let go of tens of MB collects at once (threads/collect.ts).
 * - `--heap-growing-percent=50`: a heap may grow to 1.5 times what was alive after its last full
 *   collection before the next one. V8's own factor goes up to 4 times: the garbage of a long drain
 *   or a campaign's fan-out (promoted because messages stay in flight a while) then held 60-100 MB
 *   of RSS over 35 MB alive, in the main thread and again in each worker. At 1.5 a drain of 30,000
 *   stays flat at ~175 MB instead of ~245, a campaign's peak falls by ~100 MB, at the same rates
 *   (test/bench/delivery-memory.bench.ts, campaign.bench.ts).
 */
export function configureV8(): void {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--heap-growing-percent=50');
}
