// Each project's segments, planned once and kept until the segments table changes: what the
// reactor asks on every emit, what re-evaluation runs, what usage reports read.
import type { Core } from '../core.js';
import type { ContactFilter } from '../filters/engine.js';
import { storedFilter } from './filters.js';
import type { Db } from '../store/db.js';
import { tableMemo, type Memo } from '../store/table-memo.js';
import { listSegments, type Segment } from './store.js';

export interface PlannedSegment {
  segment: Segment;
  /** Null for static segments (their members are rows), and for a stored condition that no longer plans. */
  filter: ContactFilter | null;
}

export type TrackedSegment = PlannedSegment & { filter: ContactFilter };

export interface ProjectSegments {
  all: PlannedSegment[];
  /** Dynamic segments with trackMembership: re-evaluated per contact as it changes. */
  tracked: TrackedSegment[];
  /** Event names that can change a tracked segment's membership. */
  trackedEvents: Set<string>;
  /** Static segments whose member rows a tracked segment reads. */
  trackedStatics: Set<string>;
  /** What counting every segment of the project cost last time, in ms. */
  countCostMs: number;
}

function load(core: Core, projectId: string): ProjectSegments {
  const segments = listSegments(core.db, projectId);
  const all = segments.map((segment): PlannedSegment => {
    if (segment.type === 'STATIC' || !segment.condition) return { segment, filter: null };
    try {
      return { segment, filter: storedFilter(core, projectId, segment.condition) };
    } catch (err) {
      core.log.error('a stored segment condition does not plan; the segment matches nobody', { segmentId: segment.id, error: (err as Error).message });
      return { segment, filter: null };
    }
  });
  const tracked = all.filter((p): p is TrackedSegment => p.segment.trackMembership && p.filter !== null);
  return {
    all,
    tracked,
    trackedEvents: new Set(tracked.flatMap((p) => [...p.filter.dependencies.eventNames])),
    trackedStatics: new Set(tracked.flatMap((p) => [...p.filter.dependencies.staticSegments])),
    countCostMs: segments.reduce((sum, s) => sum + s.countMs, 0),
  };
}

const memos = new WeakMap<Db, Memo<ProjectSegments>>();

/** The planned form of one segment of the project (its filter, for a dynamic one). */
export function plannedSegment(core: Core, segment: Segment): PlannedSegment {
  return projectSegments(core, segment.projectId).all.find((p) => p.segment.id === segment.id) ?? { segment, filter: null };
}

/** The project's segments as planned; shared, never to be changed by the caller. */
export function projectSegments(core: Core, projectId: string): ProjectSegments {
  let memo = memos.get(core.db);
  if (!memo) memos.set(core.db, (memo = tableMemo(core.db, 'segments', ['segments'], (id) => load(core, id))));
  return memo(projectId);
}
