// One journal line a minute about delivery, when there was any: how many messages were delivered,
// deferred and bounced, and the replies behind the deferrals and bounces that came most often, by
// recipient domain (what an operator reads first when mail stops arriving somewhere).
import type { Logger } from '../log.js';

const EVERY_MS = 60_000;
/** Distinct (domain, reply) pairs remembered per minute; a flood of different replies cannot grow it. */
const MAX_REPLIES = 1_000;
const TOP = 5;

type Counted = 'delivered' | 'deferred' | 'bounced';

export class DeliverySummary {
  private counts: Record<Counted, number> = { delivered: 0, deferred: 0, bounced: 0 };
  private replies = new Map<string, { status: Counted; domain: string; reply: string; count: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
    this.timer = setInterval(() => this.flush(), EVERY_MS).unref();
  }

  record(status: Counted, recipient: string, reply: string): void {
    this.counts[status]++;
    if (status === 'delivered') return;
    const domain = recipient.slice(recipient.lastIndexOf('@') + 1).toLowerCase();
    const key = `${status}\n${domain}\n${reply}`;
    const known = this.replies.get(key);
    if (known) known.count++;
    else if (this.replies.size < MAX_REPLIES) this.replies.set(key, { status, domain, reply: reply.slice(0, 200), count: 1 });
  }

  /** Writes the minute's line (nothing when nothing was delivered or tried) and starts the next. */
  flush(): void {
    const { delivered, deferred, bounced } = this.counts;
    if (delivered + deferred + bounced > 0) {
      const top = [...this.replies.values()].sort((a, b) => b.count - a.count).slice(0, TOP);
      this.log.info('deliveries', { delivered, deferred, bounced, ...(top.length > 0 ? { topReplies: top } : {}) });
    }
    this.counts = { delivered: 0, deferred: 0, bounced: 0 };
    this.replies = new Map();
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
