// Recorded membership of tracked segments: entries and exits are member rows and
// `segment.<slug>.entry|exit` events, always written together in one transaction, each decided
// against the rows as they are in that transaction (so a transition is recorded exactly once).
import { findContactById } from '../contacts/store.js';
import type { Core } from '../core.js';
import { conflict, notFound, queryTimeout } from '../errors.js';
import { evaluate } from '../filters/evaluate.js';
import type { ContactFilter } from '../filters/engine.js';
import { loadContactFacts, matchingAmong, matchingIds } from '../filters/sqlite.js';
import { segmentEventName } from '../bus/catalogue.js';
import { BudgetSpent, withinBudget } from '../store/budget.js';
import { readFor } from '../store/reader.js';
import { projectSegments } from './catalog.js';
import { countMembers, deleteMembers, findSegment, insertMembers, memberIds, recordCount, type Segment } from './store.js';

/**
 * How long one write transaction of a compute may hold the main thread (re-check and writes):
 * each transaction takes as many contacts as the last one's pace allows, starting small, so a
 * filter of any cost and a burst of entry events stay within a few tens of milliseconds.
 */
const COMPUTE_SLICE_MS = 20;
const FIRST_BATCH = 64;
const MAX_BATCH = 5000;
/** The re-check of one transaction is stopped past this (store/budget.ts), and the transaction retried with half as many contacts. */
const RECHECK_BUDGET_MS = 2 * COMPUTE_SLICE_MS;
/** How many times one contact's re-check may run past the budget before the compute is refused. */
const SINGLE_CONTACT_TRIES = 3;
/**
 * A re-check past its budget in wall time while the whole process used less CPU than the budget
 * was the machine (the process not scheduled), not the filter: it is tried again, this many times
 * at most, without counting against SINGLE_CONTACT_TRIES.
 */
const STARVED_TRIES = 50;

/** CPU milliseconds the process (all its threads: an upper bound for the main thread's) used since `from`. */
const cpuMsSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** The next transaction's size: what would take COMPUTE_SLICE_MS at the last one's pace, at most twice as many. */
const nextBatch = (size: number, ms: number) => Math.max(1, Math.min(MAX_BATCH, size * 2, Math.round((size * COMPUTE_SLICE_MS) / Math.max(ms, 1))));

/** The entry or exit events of a tracked segment (none for one that does not track), in the caller's transaction. */
export function emitTransitions(core: Core, segment: Segment, contactIds: readonly string[], kind: 'entry' | 'exit'): void {
  if (!segment.trackMembership || contactIds.length === 0) return;
  const name = segmentEventName(segment.slug, kind);
  const at = core.clock.now();
  for (const contactId of contactIds) {
    core.bus.emit({ projectId: segment.projectId, name, contactId, data: { segmentId: segment.id, segmentName: segment.name }, at });
  }
}

/** Adds and removes member rows of a segment with their events. */
function transition(core: Core, segment: Segment, entering: readonly string[], leaving: readonly string[]): { added: string[]; removed: string[] } {
  const added = insertMembers(core.db, segment.projectId, segment.id, entering, core.clock.now());
  const removed = deleteMembers(core.db, segment.projectId, segment.id, leaving);
  emitTransitions(core, segment, added, 'entry');
  emitTransitions(core, segment, removed, 'exit');
  return { added, removed };
}

/** One contact against every tracked segment of its project, in memory: the re-evaluation job's work. */
export function reevaluateContact(core: Core, projectId: string, contactId: string): void {
  core.bus.tx(() => {
    const contact = findContactById(core.db, projectId, contactId);
    if (!contact) return; // deleted since: its rows went with it
    const { tracked, trackedEvents } = projectSegments(core, projectId);
    if (tracked.length === 0) return;
    const facts = loadContactFacts(core.db, projectId, contact, trackedEvents);
    const now = core.clock.now();
    for (const { segment, filter } of tracked) {
      const member = evaluate(filter.predicate, facts, now);
      if (member === facts.isMember(segment.id)) continue;
      if (member) transition(core, segment, [contactId], []);
      else transition(core, segment, [], [contactId]);
    }
  });
}

export interface ComputeResult {
  added: number;
  removed: number;
  total: number;
}

/**
 * Records the membership of a tracked dynamic segment for every contact of its project. One scan
 * of the contacts (the SQL engine's counting shape, on a reader thread within a request's budget)
 * is diffed against the recorded rows; the differences are then written in batches, each
 * re-checked inside its own transaction, so a contact that changed since the scan (and was
 * re-evaluated by its job meanwhile) is left as its job recorded it, never overwritten with the
 * scan's older view.
 */
export async function computeMembership(core: Core, segment: Segment, filter: ContactFilter): Promise<ComputeResult> {
  const { projectId } = segment;
  const opts = { projectId, now: core.clock.now() };
  const reader = core.reader;
  const read = readFor(core.config, projectId, 'request');
  const [matching, recorded] = await Promise.all([matchingIds(reader, read, filter.predicate, opts.now), memberIds(reader, read, segment.id)]);
  const leaving = new Set(recorded);
  const entering = matching.filter((id) => !leaving.delete(id));
  const result: ComputeResult = { added: 0, removed: 0, total: 0 };
  /** Re-checks and writes one batch; false when its re-check ran past its budget (nothing written). */
  const write = (batch: string[], enter: boolean): boolean => {
    try {
      core.bus.tx(() => {
        const current = findSegment(core.db, projectId, segment.id);
        if (!current) throw notFound('Segment');
        if (current.updatedAt !== segment.updatedAt) throw conflict('The segment changed while its membership was computed; compute again');
        const matching = withinBudget(core.db, RECHECK_BUDGET_MS, () => matchingAmong(core.db, filter.predicate, opts, batch));
        const still = batch.filter((id) => matching.has(id) === enter);
        const { added, removed } = enter ? transition(core, segment, still, []) : transition(core, segment, [], still);
        result.added += added.length;
        result.removed += removed.length;
      });
      return true;
    } catch (err) {
      if (err instanceof BudgetSpent) return false;
      throw err;
    }
  };
  // In id order, the rows of one batch land on neighbouring pages of the indexes keyed by contact.
  const apply = async (unordered: string[], enter: boolean) => {
    const ids = unordered.sort();
    let size = FIRST_BATCH;
    let aloneOverBudget = 0;
    let starved = 0;
    for (let i = 0; i < ids.length; ) {
      const batch = ids.slice(i, i + size);
      const started = performance.now();
      const cpu = process.cpuUsage();
      if (!write(batch, enter)) {
        // One contact alone past the budget, again and again: this filter costs more than a turn of
        // the main thread may, and cannot be recorded. A try that used less CPU than the budget
        // waited for the machine (a loaded host), so only tries that spent it count.
        if (batch.length === 1) {
          if (cpuMsSince(cpu) < RECHECK_BUDGET_MS && ++starved < STARVED_TRIES) await new Promise((resolve) => setImmediate(resolve));
          else if (++aloneOverBudget >= SINGLE_CONTACT_TRIES) throw queryTimeout(RECHECK_BUDGET_MS);
        }
        size = Math.ceil(batch.length / 2);
        continue;
      }
      aloneOverBudget = 0;
      starved = 0;
      i += batch.length;
      size = nextBatch(batch.length, performance.now() - started);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await apply(entering, true);
  await apply([...leaving], false);
  result.total = await countMembers(reader, read, segment.id);
  recordCount(core.db, projectId, segment.id, { memberCount: result.total, at: core.clock.now(), ms: segment.countMs });
  return result;
}
