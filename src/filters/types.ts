// The FilterCondition tree of the API: what segments, campaign audiences and workflow conditions hold.

export const VALUE_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'exists',
  'notExists',
  'within',
  'olderThan',
] as const;
export const EVENT_OPERATORS = ['triggered', 'triggeredWithin', 'triggeredOlderThan', 'notTriggered', 'notTriggeredWithin'] as const;
export const MEMBERSHIP_OPERATORS = ['memberOfSegment', 'notMemberOfSegment'] as const;
export const OPERATORS = [...VALUE_OPERATORS, ...EVENT_OPERATORS, ...MEMBERSHIP_OPERATORS] as const;

export type ValueOperator = (typeof VALUE_OPERATORS)[number];
export type EventOperator = (typeof EVENT_OPERATORS)[number];
export type MembershipOperator = (typeof MEMBERSHIP_OPERATORS)[number];
export type Operator = (typeof OPERATORS)[number];

export const UNITS = ['days', 'hours', 'minutes'] as const;
export type Unit = (typeof UNITS)[number];
export const UNIT_MS: Record<Unit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export interface Filter {
  /** `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<path>`; an event name for event operators; `segment` for membership. */
  field: string;
  operator: Operator;
  value?: unknown;
  unit?: Unit;
}

export interface FilterGroup {
  /** ANDed. */
  filters: Filter[];
  /** A nested condition, ANDed with the filters. */
  conditions?: FilterCondition;
}

export interface FilterCondition {
  logic: 'AND' | 'OR';
  groups: FilterGroup[];
}

/** The bounds of a tree: nesting of conditions and filters in all. */
export const MAX_DEPTH = 10;
export const MAX_FILTERS = 200;

/** The field of a membership filter (the segment id is its value). */
export const SEGMENT_FIELD = 'segment';

/** Segment ids the condition names in membership filters (directly, not through those segments). */
export function referencedSegments(condition: FilterCondition, into = new Set<string>()): Set<string> {
  for (const group of condition.groups) {
    for (const filter of group.filters) {
      if ((MEMBERSHIP_OPERATORS as readonly string[]).includes(filter.operator) && typeof filter.value === 'string') into.add(filter.value);
    }
    if (group.conditions) referencedSegments(group.conditions, into);
  }
  return into;
}
