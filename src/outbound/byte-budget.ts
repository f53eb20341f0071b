/**
 * A bound on the bytes of large messages in delivery at once. A large message is read from the
 * store, unpacked, signed (a copy with its signature) and streamed out: a few times its size in
 * memory while in flight. Without a bound, the deliveries of a burst of 40 MB sends would all be in
 * that state together, each waiting for a session to its destination.
 *
 * Holders are served first come first served; one larger than the whole budget waits until nothing
 * else is held, then goes alone.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; grant: () => void }[] = [];

  constructor(private readonly capacity: number) {}

  /** Resolves once `bytes` fit, with the function that gives them back (call it exactly once). */
  take(bytes: number): Promise<() => void> {
    const wanted = Math.min(bytes, this.capacity);
    return new Promise((resolve) => {
      this.waiting.push({ bytes: wanted, grant: () => resolve(() => this.give(wanted)) });
      this.grantWaiting();
    });
  }

  private give(bytes: number): void {
    this.used -= bytes;
    this.grantWaiting();
  }

  private grantWaiting(): void {
    for (let next = this.waiting[0]; next && this.used + next.bytes <= this.capacity; next = this.waiting[0]) {
      this.waiting.shift();
      this.used += next.bytes;
      next.grant();
    }
  }
}
