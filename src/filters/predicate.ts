// The planned form of a FilterCondition that both engines run: fields resolved, values read once,
// segment references replaced by what membership means (the nested condition of a dynamic segment,
// the member rows of a static one), negations explicit. Times are kept relative (`ago`), so one
// plan serves any `now`.

/** What a value is compared with: a fixed number (ms for times), or the instant `ago` ms before the evaluation's now. */
export type Bound = { value: number } | { ago: number };

export type Comparison = '>' | '<' | '>=' | '<=' | '=';

/** A filter value prepared for equality with a data value. */
export type Expected =
  | { type: 'number'; number: number }
  /** `folded` is the ASCII-folded text; `number` when the text is a numeric string. */
  | { type: 'string'; folded: string; number: number | null }
  | { type: 'boolean'; value: boolean }
  /** An array or object, compared as its JSON text. */
  | { type: 'json'; text: string };

export type DataTest =
  | { op: 'exists' }
  | { op: 'equals'; expected: Expected }
  /** Text containing `folded`, or an array with an element equal to `element`. */
  | { op: 'contains'; folded: string; element: Expected }
  | { op: 'compare'; mode: 'number' | 'date'; comparison: Comparison; bound: Bound };

export type Predicate =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'and'; of: Predicate[] }
  | { kind: 'or'; of: Predicate[] }
  | { kind: 'not'; of: Predicate }
  /** The email (lower-cased as stored in `email_lc`) equals or contains `text`. */
  | { kind: 'email'; op: 'equals' | 'contains'; text: string }
  | { kind: 'subscribed'; value: boolean }
  | { kind: 'time'; column: 'createdAt' | 'updatedAt'; comparison: Comparison; bound: Bound }
  /** `path` walks nested objects of the contact's data. */
  | { kind: 'data'; path: string[]; test: DataTest }
  /** The contact has an event of this name at or after `since`, or before `before`. */
  | { kind: 'event'; name: string; since?: Bound; before?: Bound }
  /** The contact is a member row of a static segment. */
  | { kind: 'member'; segmentId: string };

export const boundAt = (bound: Bound, now: number): number => ('value' in bound ? bound.value : now - bound.ago);

/** What a plan reads besides the contact row: event names and static segments (for loading one contact's facts, and for reactors' interest). */
export interface Dependencies {
  eventNames: Set<string>;
  staticSegments: Set<string>;
  /** Top-level data keys (field usage speaks of those). */
  dataKeys: Set<string>;
}

export function dependenciesOf(predicate: Predicate, into: Dependencies = { eventNames: new Set(), staticSegments: new Set(), dataKeys: new Set() }): Dependencies {
  switch (predicate.kind) {
    case 'and':
    case 'or':
      for (const p of predicate.of) dependenciesOf(p, into);
      break;
    case 'not':
      dependenciesOf(predicate.of, into);
      break;
    case 'event':
      into.eventNames.add(predicate.name);
      break;
    case 'member':
      into.staticSegments.add(predicate.segmentId);
      break;
    case 'data':
      into.dataKeys.add(predicate.path[0]!);
      break;
    default:
      break;
  }
  return into;
}
