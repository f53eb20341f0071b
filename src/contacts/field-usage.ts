// What references a contact field: the shape the usage registry answers, and the rule read from it.
export interface NamedRef {
  id: string;
  name: string;
}

/** Segments, campaigns and workflows that reference a contact field. */
export type FieldUsage = {
  segments: NamedRef[];
  campaigns: NamedRef[];
  workflows: NamedRef[];
};

export const isFieldUsed = (u: FieldUsage): boolean => u.segments.length + u.campaigns.length + u.workflows.length > 0;
