// The members a condition would have before it is saved: the segment builder's (and a filtered
// audience's) live count and sample, counted as a dynamic segment's memberCount is.
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { countFiltered, pageFiltered } from '../filters/engine.js';
import { contactFilter } from './filters.js';

export interface PreviewInput {
  /** A FilterCondition, checked as a segment's (422 with fields under `condition`). */
  condition: unknown;
  /** The segment being edited: a condition that reaches it again is refused, as saving it would be. */
  segmentId?: string;
}

/** How many of the matching contacts, newest first, the preview shows. */
export const PREVIEW_SAMPLE = 10;

/** The exact count and the newest few, both on reader threads within a request's budget (422 QUERY_TIMEOUT past it). */
export async function previewSegment(core: Core, projectId: string, input: PreviewInput): Promise<{ count: number; sample: Contact[] }> {
  const filter = contactFilter(core, projectId, input.condition, 'condition', input.segmentId);
  const [count, sample] = await Promise.all([countFiltered(core, filter, 'request'), pageFiltered(core, filter, { offset: 0, limit: PREVIEW_SAMPLE })]);
  return { count, sample };
}
