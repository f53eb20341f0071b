// Recorded membership of tracked segments: entries and exits are member rows and
// `segment.<slug>.entry|exit` events, always written together in one transaction, each decided
// against the rows as they are in that transaction (so a transition is recorded exactly once).
import { findContactById } from '../contacts/store.js';
import type { Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { evaluate } from '../filters/evaluate.js';
import type { ContactFilter } from '../filters/engine.js';
import { loadContactFacts, matchingAmong, matchingIds } from '../filters/sqlite.js';
import { segmentEventName } from '../events/catalogue.js';
import { readerOf } from '../store/reader.js';
import { projectSegments } from './catalog.js';
import { countMembers, deleteMembers, findSegment, insertMembers, memberIds, recordCount, type Segment } from './store.js';

/** Transitions per transaction of a compute; between two, the event loop serves others. */
const COMPUTE_BATCH = 5000;

/** The entry or exit events of a tracked segment (none for one that does not track), in the caller's transaction. */
export function emitTransitions(ctx: Ctx, segment: Segment, contactIds: readonly string[], kind: 'entry' | 'exit'): void {
  if (!segment.trackMembership || contactIds.length === 0) return;
  const name = segmentEventName(segment.slug, kind);
  const at = ctx.clock.now();
  for (const contactId of contactIds) {
    ctx.bus.emit({ projectId: segment.projectId, name, contactId, data: { segmentId: segment.id, segmentName: segment.name }, at });
  }
}

/** Adds and removes member rows of a segment with their events. */
function transition(ctx: Ctx, segment: Segment, entering: readonly string[], leaving: readonly string[]): { added: string[]; removed: string[] } {
  const added = insertMembers(ctx.db, segment.projectId, segment.id, entering, ctx.clock.now());
  const removed = deleteMembers(ctx.db, segment.projectId, segment.id, leaving);
  emitTransitions(ctx, segment, added, 'entry');
  emitTransitions(ctx, segment, removed, 'exit');
  return { added, removed };
}

/** One contact against every tracked segment of its project, in memory: the re-evaluation job's work. */
export function reevaluateContact(ctx: Ctx, projectId: string, contactId: string): void {
  ctx.bus.tx(() => {
    const contact = findContactById(ctx.db, projectId, contactId);
    if (!contact) return; // deleted since: its rows went with it
    const { tracked, trackedEvents } = projectSegments(ctx, projectId);
    if (tracked.length === 0) return;
    const facts = loadContactFacts(ctx.db, projectId, contact, trackedEvents);
    const now = ctx.clock.now();
    for (const { segment, filter } of tracked) {
      const member = evaluate(filter.predicate, facts, now);
      if (member === facts.isMember(segment.id)) continue;
      if (member) transition(ctx, segment, [contactId], []);
      else transition(ctx, segment, [], [contactId]);
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
 * of the contacts (the SQL engine's counting shape) is diffed against the recorded rows; the
 * differences are then written in batches, each re-checked inside its own transaction, so a
 * contact that changed since the scan (and was re-evaluated by its job meanwhile) is left as its
 * job recorded it, never overwritten with the scan's older view.
 */
export async function computeMembership(ctx: Ctx, segment: Segment, filter: ContactFilter): Promise<ComputeResult> {
  const { projectId } = segment;
  const opts = { projectId, now: ctx.clock.now() };
  const matching = await matchingIds(readerOf(ctx), filter.predicate, opts);
  const leaving = new Set(memberIds(ctx.db, projectId, segment.id));
  const entering = matching.filter((id) => !leaving.delete(id));
  const result: ComputeResult = { added: 0, removed: 0, total: 0 };
  // In id order, the rows of one batch land on neighbouring pages of the indexes keyed by contact.
  const apply = async (unordered: string[], enter: boolean) => {
    const ids = unordered.sort();
    for (let i = 0; i < ids.length; i += COMPUTE_BATCH) {
      ctx.bus.tx(() => {
        const current = findSegment(ctx.db, projectId, segment.id);
        if (!current) throw notFound('Segment');
        if (current.updatedAt !== segment.updatedAt) throw conflict('The segment changed while its membership was computed; compute again');
        const batch = ids.slice(i, i + COMPUTE_BATCH);
        const matching = matchingAmong(ctx.db, filter.predicate, opts, batch);
        const still = batch.filter((id) => matching.has(id) === enter);
        const { added, removed } = enter ? transition(ctx, segment, still, []) : transition(ctx, segment, [], still);
        result.added += added.length;
        result.removed += removed.length;
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await apply(entering, true);
  await apply([...leaving], false);
  result.total = countMembers(ctx.db, projectId, segment.id);
  recordCount(ctx.db, projectId, segment.id, { memberCount: result.total, at: ctx.clock.now(), ms: segment.countMs });
  return result;
}
