import type { Core } from '../core.js';
import { referencedSegments } from '../filters/types.js';
import type { NamedRef } from '../contacts/field-usage.js';
import type { ConditionUse, SegmentUsage, Usages } from '../usage/usages.js';
import { projectSegments, type PlannedSegment } from './catalog.js';


export const isSegmentUsed = (u: SegmentUsage): boolean => u.campaigns.length + u.segments.length + u.workflows.length > 0;

const segmentsWhere = (core: Core, projectId: string, uses: (p: PlannedSegment) => boolean): NamedRef[] =>
  projectSegments(core, projectId)
    .all.filter(uses)
    .map(({ segment }) => ({ id: segment.id, name: segment.name }));

/** Segments report the data keys and event names their conditions read (through the segments they name, too), and the segments they name. */
export function segmentUsage(usages: Usages): void {
  usages.fields.register((core, projectId, key) => ({ segments: segmentsWhere(core, projectId, (p) => p.filter?.dependencies.dataKeys.has(key) ?? false) }));
  usages.events.register((core, projectId, name) => ({ segments: segmentsWhere(core, projectId, (p) => p.filter?.dependencies.eventNames.has(name) ?? false) }));
  usages.segments.register((core, projectId, segmentId) => ({
    segments: segmentsWhere(core, projectId, (p) => p.segment.condition !== null && referencedSegments(p.segment.condition).has(segmentId)),
  }));
  usages.segmentConditions.register((core, projectId, segmentId) => ({
    conditions: projectSegments(core, projectId).all.flatMap(({ segment: { id, name, condition } }): ConditionUse[] =>
      condition !== null && referencedSegments(condition).has(segmentId) ? [{ owner: 'segments', id, name, condition, segmentId: id }] : [],
    ),
  }));
}
