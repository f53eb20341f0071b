// Conditions planned against the project's segments: `memberOfSegment` is resolved here, through
// the segments store, so the filter engine itself knows nothing of segments.
import type { Core } from '../core.js';
import { filterOf, type ContactFilter } from '../filters/engine.js';
import { planCondition, planFilter, planStored, type SegmentLookup } from '../filters/plan.js';
import type { FilterCondition } from '../filters/types.js';
import { findSegment } from './store.js';

const segmentLookup =
  (core: Core, projectId: string): SegmentLookup =>
  (id) =>
    findSegment(core.db, projectId, id);

/**
 * A FilterCondition from a request: 422 (field errors under `path`, such as `audienceCondition`)
 * unless it is valid, within bounds, and references existing segments without a cycle.
 * `segmentId` names the segment the condition is for, so that reaching it again is a cycle.
 */
export function contactFilter(core: Core, projectId: string, raw: unknown, path: string, segmentId?: string): ContactFilter {
  return filterOf(projectId, planCondition(raw, { segments: segmentLookup(core, projectId), path, ...(segmentId ? { segmentId } : {}) }));
}

/** One filter `{field, operator, value, unit}` from a request (a workflow CONDITION step's config), same rules. */
export function singleFilter(core: Core, projectId: string, raw: unknown, path: string): ContactFilter {
  return filterOf(projectId, planFilter(raw, { segments: segmentLookup(core, projectId), path }));
}

/** A condition stored after it was checked (a segment's, a campaign's audience). */
export function storedFilter(core: Core, projectId: string, condition: FilterCondition): ContactFilter {
  return filterOf(projectId, planStored(condition, { segments: segmentLookup(core, projectId), path: 'condition' }));
}

