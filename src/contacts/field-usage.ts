import { createUsageRegistry } from '../usage/registry.js';

export interface NamedRef {
  id: string;
  name: string;
}

export type FieldUsage = {
  segments: NamedRef[];
  campaigns: NamedRef[];
  workflows: NamedRef[];
};

/** Segments, campaigns and workflows that reference a contact field (its bare key, no `data.` prefix). */
export const fieldUsages = createUsageRegistry<FieldUsage>(() => ({ segments: [], campaigns: [], workflows: [] }));

export const isFieldUsed = (u: FieldUsage): boolean => u.segments.length + u.campaigns.length + u.workflows.length > 0;
