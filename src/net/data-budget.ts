// The bytes of DATA being received at once, over every SMTP session of the daemon: smtp.maxSize
// bounds one message, this bounds their sum (ten clients sending 39 MB each held 390 MB).
import type { Logger } from '../log.js';

/** Who asks for room: for the log line of a refusal. */
export interface DataClient {
  listener: 'smtp' | 'submission';
  remoteAddress: string;
}

/**
 * One budget shared by the inbound and submission listeners. A session takes room as its bytes
 * arrive and gives it back once its message is stored (or refused, or its client is gone).
 */
export class DataBudget {
  private held = 0;

  constructor(
    readonly bytes: number,
    private readonly log: Logger,
  ) {}

  /** Takes `n` bytes when they fit; when they do not, takes nothing, logs the refusal and answers false. */
  take(n: number, client: DataClient): boolean {
    if (this.held + n <= this.bytes) {
      this.held += n;
      return true;
    }
    this.log.warn('SMTP data budget full: message refused with 452, the sender will retry', {
      ...client,
      budget: this.bytes,
      held: this.held,
    });
    return false;
  }

  give(n: number): void {
    this.held -= n;
  }

  /** The bytes held now. */
  get inUse(): number {
    return this.held;
  }
}
