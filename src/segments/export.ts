// What GET /contacts/export writes: every contact of the project, or the members of one segment
// (through `memberOfSegment`, the condition a campaign to the segment walks, live for a dynamic
// segment), as CSV rows a walk step at a time.
import type { Core } from '../core.js';
import { notFound } from '../errors.js';
import { walkFiltered } from '../filters/engine.js';
import type { Filter, FilterCondition } from '../filters/types.js';
import { contactsCsv, dataKeys } from '../contacts/csv-export.js';
import { readFor } from '../store/reader.js';
import { storedFilter } from './filters.js';
import { findSegment } from './store.js';

const condition = (test: Filter): FilterCondition => ({ logic: 'AND', groups: [{ filters: [test] }] });
const EVERYONE = condition({ field: 'email', operator: 'exists' });

export interface ContactsExport {
  /** The file name offered for download. */
  fileName: string;
  rows: AsyncGenerator<string>;
}

/** The export of the project's contacts, or of a segment's members (404 for a segment not in the project). */
export async function contactsExport(core: Core, projectId: string, segmentId: string | null): Promise<ContactsExport> {
  const segment = segmentId === null ? null : findSegment(core.db, projectId, segmentId);
  if (segmentId !== null && !segment) throw notFound('Segment');
  const filter = storedFilter(core, projectId, segment ? condition({ field: 'segment', operator: 'memberOfSegment', value: segment.id }) : EVERYONE);
  const keys = await dataKeys(core.reader, readFor(core.config, projectId, 'request'));
  return {
    fileName: segment ? `segment-${segment.slug}.csv` : 'contacts.csv',
    rows: contactsCsv(walkFiltered(core, filter, core.clock.now()), keys),
  };
}
