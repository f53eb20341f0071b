import type { NamedRef } from '../contacts/field-usage.js';
import type { Ctx } from '../context.js';
import { referencedSegments, type FilterCondition } from '../filters/types.js';
import type { Usages } from '../usage/usages.js';
import { projectSegments, type PlannedSegment } from './catalog.js';

/**
 * What uses a segment, and keeps it from being deleted: campaigns that still depend on it (the
 * campaigns module reports those it counts active), segments whose conditions name it, workflows.
 */
export type SegmentUsage = {
  campaigns: NamedRef[];
  segments: NamedRef[];
  workflows: NamedRef[];
};

/** A stored condition that names a segment: an edit of that segment must leave it valid. */
export interface ConditionUse {
  /** What holds it, as the keys of SegmentUsage. */
  owner: keyof SegmentUsage;
  id: string;
  name: string;
  /** As its owner plans it (a campaign's audience with its subscription rule, a workflow step's one filter). */
  condition: FilterCondition;
  /** The segment whose own condition this is (reaching it again is a cycle). */
  segmentId?: string;
}

export type SegmentConditions = { conditions: ConditionUse[] };

export const isSegmentUsed = (u: SegmentUsage): boolean => u.campaigns.length + u.segments.length + u.workflows.length > 0;

const segmentsWhere = (ctx: Ctx, projectId: string, uses: (p: PlannedSegment) => boolean): NamedRef[] =>
  projectSegments(ctx, projectId)
    .all.filter(uses)
    .map(({ segment }) => ({ id: segment.id, name: segment.name }));

/** Segments report the data keys and event names their conditions read (through the segments they name, too), and the segments they name. */
export function segmentUsage(usages: Usages): void {
  usages.fields.register((ctx, projectId, key) => ({ segments: segmentsWhere(ctx, projectId, (p) => p.filter?.dependencies.dataKeys.has(key) ?? false) }));
  usages.events.register((ctx, projectId, name) => ({ segments: segmentsWhere(ctx, projectId, (p) => p.filter?.dependencies.eventNames.has(name) ?? false) }));
  usages.segments.register((ctx, projectId, segmentId) => ({
    segments: segmentsWhere(ctx, projectId, (p) => p.segment.condition !== null && referencedSegments(p.segment.condition).has(segmentId)),
  }));
  usages.segmentConditions.register((ctx, projectId, segmentId) => ({
    conditions: projectSegments(ctx, projectId).all.flatMap(({ segment: { id, name, condition } }): ConditionUse[] =>
      condition !== null && referencedSegments(condition).has(segmentId) ? [{ owner: 'segments', id, name, condition, segmentId: id }] : [],
    ),
  }));
}
