import type { Clock } from '../clock.js';

const WINDOW_MS = 60_000;

/**
 * The per-project send throttle: at most `perMinute` deliveries started per rolling minute.
 * It holds the queue (the job waits), never the API. 0 turns it off.
 */
export class SendThrottle {
  private readonly starts = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Null when the project may send now (and counts the send); otherwise when it may. */
  take(projectId: string): number | null {
    if (this.perMinute === 0) return null;
    const now = this.clock.now();
    const recent = (this.starts.get(projectId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= this.perMinute) {
      this.starts.set(projectId, recent);
      return recent[0]! + WINDOW_MS;
    }
    recent.push(now);
    this.starts.set(projectId, recent);
    return null;
  }
}
