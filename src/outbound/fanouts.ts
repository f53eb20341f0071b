/**
 * Campaign fan-outs running in this daemon. A fan-out (render, store, queue) and bulk delivery
 * (sign, send) take the same cores, and delivering a campaign while it still fans out bought
 * nothing: the machine is CPU-bound either way, and the whole audience reached the sink no sooner.
 * So while one runs, bulk delivery keeps to a few places (`FANOUT_BULK_PLACES`, src/outbound/deliver-job.ts)
 * and the fan-out has the CPU; transactional mail is never held.
 */
export class Fanouts {
  private count = 0;

  /** Runs a fan-out, counted until it ends (however it ends). */
  async run<T>(fanOut: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await fanOut();
    } finally {
      this.count--;
    }
  }

  get running(): boolean {
    return this.count > 0;
  }
}
