// A segment's condition is read by every condition that names it (another segment's, a campaign
// audience, a workflow CONDITION step), expanded in place. An edit that would leave one of those
// unplannable (past the expansion bounds, too deep a chain of references) would silently empty
// it, so the edit is refused with a 409 naming each condition it would break and why.
import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import { planStored, type SegmentLookup } from '../filters/plan.js';
import { referencedSegments } from '../filters/types.js';
import { findSegment, listSegments, type Segment } from './store.js';
import type { ConditionUse } from '../usage/usages.js';
import type { Usages } from '../usage/usages.js';

/** The segment and every segment whose condition reaches it through others. */
function reaching(segments: Segment[], segmentId: string): Set<string> {
  const found = new Set([segmentId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of segments) {
      if (found.has(s.id) || !s.condition || ![...referencedSegments(s.condition)].some((id) => found.has(id))) continue;
      found.add(s.id);
      grew = true;
    }
  }
  return found;
}

/** Why the condition does not plan with these segments, or null when it does. */
function problemOf(use: ConditionUse, segments: SegmentLookup): string | null {
  try {
    planStored(use.condition, { segments, path: 'condition', ...(use.segmentId ? { segmentId: use.segmentId } : {}) });
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err.extra.errors?.[0]?.message ?? err.message;
  }
}

/**
 * Refuses (409) to replace `before` with `after` when a condition that reads the segment, directly
 * or through other segments, plans with `before` and would not with `after`. Conditions that did
 * not plan already are no reason to refuse.
 */
export function assertReadersStayValid(core: Core, usage: Usages, before: Segment, after: Segment): void {
  const { projectId } = before;
  const stored = (id: string) => findSegment(core.db, projectId, id);
  const withBefore: SegmentLookup = (id) => (id === before.id ? before : stored(id));
  const withAfter: SegmentLookup = (id) => (id === after.id ? after : stored(id));
  const uses = new Map<string, ConditionUse>();
  for (const id of reaching(listSegments(core.db, projectId), before.id)) {
    for (const use of usage.segmentConditions.collect(core, projectId, id).conditions) uses.set(`${use.owner}:${use.id}:${JSON.stringify(use.condition)}`, use);
  }
  const broken: Record<ConditionUse['owner'], { id: string; name: string; problem: string }[]> = { segments: [], campaigns: [], workflows: [] };
  for (const use of uses.values()) {
    if (broken[use.owner].some((b) => b.id === use.id)) continue;
    const problem = problemOf(use, withAfter);
    if (problem !== null && problemOf(use, withBefore) === null) broken[use.owner].push({ id: use.id, name: use.name, problem });
  }
  const count = broken.segments.length + broken.campaigns.length + broken.workflows.length;
  if (count === 0) return;
  const names = [...broken.segments.map((s) => `segment "${s.name}"`), ...broken.campaigns.map((c) => `campaign "${c.name}"`), ...broken.workflows.map((w) => `workflow "${w.name}"`)];
  throw new ApiError(409, 'CONFLICT', `The new condition would make ${count === 1 ? 'a condition' : `${count} conditions`} that use${count === 1 ? 's' : ''} this segment invalid: ${names.join(', ')}`, {
    details: broken,
    suggestion: 'Change or remove the conditions listed in details first (each with its problem), or keep this segment smaller: references expand it in place',
  });
}
