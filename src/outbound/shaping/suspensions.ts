import type { Clock } from '../../clock.js';

/** The first pause after a throttling reply, and the longest it grows to (doubling while the provider keeps throttling). */
export const FIRST_SUSPENSION_MS = 60_000;
export const LONGEST_SUSPENSION_MS = 30 * 60_000;

interface State {
  /** Suspended until then (daemon clock). */
  until: number;
  /** Throttled suspensions in a row: the next one lasts FIRST * 2^level. */
  level: number;
}

/**
 * Providers that told us to slow down, and until when their queue waits. A throttling reply while
 * the provider is already suspended (the deliveries that were under way) does not lengthen it; one
 * after the pause does, doubling up to LONGEST; an answer that is not throttling ends the run.
 * In memory: after a restart the provider is tried again and answers for itself.
 */
export class Suspensions {
  private readonly providers = new Map<string, State>();

  constructor(private readonly clock: Clock) {}

  /** When the provider's queue may run again, or null when it runs now. */
  until(provider: string): number | null {
    const state = this.providers.get(provider);
    return state && state.until > this.clock.now() ? state.until : null;
  }

  /** The provider throttled us: its queue waits; answers until when. */
  throttled(provider: string): number {
    const now = this.clock.now();
    const state = this.providers.get(provider);
    if (state && state.until > now) return state.until;
    const level = state ? state.level + 1 : 0;
    const until = now + Math.min(FIRST_SUSPENSION_MS * 2 ** level, LONGEST_SUSPENSION_MS);
    this.providers.set(provider, { until, level });
    return until;
  }

  /** The provider answered without throttling: the next throttling starts the pauses over. */
  served(provider: string): void {
    const state = this.providers.get(provider);
    if (state && state.until <= this.clock.now()) this.providers.delete(provider);
  }
}
