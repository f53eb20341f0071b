// The activity feed merges entries from several sources (events today, workflow executions later).
// Each source reads its own index, newest first; the feed merges them, so a new source plugs in
// through its module (src/modules.ts) without a change here.
import type { Core } from '../core.js';

/** A position in one source's order (time, then the source's own key, both descending). */
export interface ActivityBound {
  at: number;
  key: number;
}

export interface SourceQuery {
  projectId: string;
  /** At most this many entries, newest first. */
  limit: number;
  /** Only entries strictly older than this. */
  before: ActivityBound;
  from: number;
  to: number;
  /** Only these types; null for all. */
  types: string[] | null;
  contactId: string | null;
}

export interface ActivityEntry {
  /** Orders a source's entries of the same millisecond: a non-negative integer, unique within the source. */
  key: number;
  id: string;
  type: string;
  at: number;
  contactId: string | null;
  metadata: Record<string, unknown>;
}

export interface ActivitySource {
  /** Unique, short, stable: it is part of every cursor. */
  name: string;
  entries(core: Core, query: SourceQuery): ActivityEntry[];
}

export interface ActivitySources {
  register(source: ActivitySource): void;
  all(): readonly ActivitySource[];
}

export function createActivitySources(): ActivitySources {
  const sources: ActivitySource[] = [];
  return {
    register(source) {
      if (sources.some((s) => s.name === source.name)) throw new Error(`activity source ${source.name} registered twice`);
      sources.push(source);
    },
    all: () => sources,
  };
}
