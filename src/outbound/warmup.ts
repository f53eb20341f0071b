import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { firstSendDay } from '../domains/health-store.js';
import { countWarmup, dropWarmupBefore, warmupSent } from './warmup-store.js';

const DAY_MS = 86_400_000;
/** Domains whose day is kept in memory; past it the map starts over (each reloads from the store). */
const MAX_DOMAINS = 10_000;

export interface WarmupConfig {
  enabled: boolean;
  /** Deliveries allowed on day 1, day 2... of a domain's sending; none after the last. */
  schedule: number[];
}

/** A sender domain's warm-up today: `day` 1 is its first day of sending; `budget` null is no limit (the schedule is over). */
export interface WarmupState {
  day: number;
  budget: number | null;
  sentToday: number;
}

interface Today {
  day: number;
  firstDay: number;
  sent: number;
  /** Bulk deliveries held today, each given its own time after today (in memory: a restart starts over). */
  held: number;
}

/** The budget of warm-up day `day` (1-based): the schedule's, or null once it is over. */
export const warmupBudget = (schedule: readonly number[], day: number): number | null => (day <= schedule.length ? schedule[day - 1]! : null);

/**
 * When the next held bulk delivery of `today` is due: tomorrow's start plus its place among those
 * held today, at the pace of tomorrow's budget (past its last place, the day after, and so on).
 * With no budget tomorrow (the schedule ends) today's pace spreads them.
 */
function heldUntil(today: Today, budget: number, tomorrow: number | null): number {
  const place = today.held++;
  return (today.day + 1) * DAY_MS + Math.floor((place * DAY_MS) / Math.max(tomorrow ?? budget, 1));
}

/** A domain's day as the store has it: its first day of sending (today for a domain yet to send) and the deliveries written today. */
function storedToday(db: Db, projectId: string, domain: string, day: number): Today {
  return { day, firstDay: Math.min(firstSendDay(db, projectId, domain) ?? day, day), sent: warmupSent(db, projectId, domain, day), held: 0 };
}

/** A sender domain's warm-up today as the store has it (outcomes written), or null when warm-up is off. */
export function warmupState(db: Db, config: WarmupConfig, projectId: string, domain: string, now: number): WarmupState | null {
  if (!config.enabled) return null;
  const today = storedToday(db, projectId, domain, Math.floor(now / DAY_MS));
  const day = today.day - today.firstDay + 1;
  return { day, budget: warmupBudget(config.schedule, day), sentToday: today.sent };
}

/**
 * `delivery.warmup`: a new sender domain's deliveries per UTC day follow the schedule from its
 * first send (the first day sender_daily counts for it). Every delivery counts; only bulk mail
 * is held when the day's budget is used, transactional mail always goes. Held mail is spread over
 * the next day at the pace of its budget (the n-th held delivery due n budget-shares of the day
 * after its start), never all due at 00:00 UTC at once. The day's count is kept in memory as deliveries start and written with each outcome, so a
 * restart loses at most the deliveries under way.
 */
export class Warmup {
  private readonly domains = new Map<string, Today>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: WarmupConfig,
  ) {}

  private today(projectId: string, domain: string): Today {
    const key = `${projectId} ${domain}`;
    const day = Math.floor(this.clock.now() / DAY_MS);
    const known = this.domains.get(key);
    if (known && known.day === day) return known;
    if (this.domains.size >= MAX_DOMAINS) this.domains.clear();
    dropWarmupBefore(this.db, projectId, domain, day);
    const today = storedToday(this.db, projectId, domain, day);
    this.domains.set(key, today);
    return today;
  }

  /** Null when a delivery from `domain` may start now (it is counted); for bulk mail over the day's budget, when to try again. */
  take(projectId: string, domain: string, bulk: boolean): number | null {
    if (!this.config.enabled) return null;
    const today = this.today(projectId, domain);
    const day = today.day - today.firstDay + 1;
    const budget = warmupBudget(this.config.schedule, day);
    if (bulk && budget !== null && today.sent >= budget) return heldUntil(today, budget, warmupBudget(this.config.schedule, day + 1));
    today.sent++;
    return null;
  }

  /** A delivery taken did not start after all (its provider held it, it was withdrawn). */
  giveBack(projectId: string, domain: string): void {
    const today = this.config.enabled ? this.domains.get(`${projectId} ${domain}`) : undefined;
    if (today && today.sent > 0) today.sent--;
  }

  /** Writes the count of one delivery taken: in the transaction of its outcome. */
  record(projectId: string, domain: string): void {
    if (this.config.enabled) countWarmup(this.db, projectId, domain, Math.floor(this.clock.now() / DAY_MS));
  }
}
