// The filter engine's FilterCondition as the console edits it (docs/api.md "Segments and filters"):
// its JSON types, which operators each kind of field takes, what value each operator wants, the
// labels people read, the text each value editor shows, and where the API's problems point. Pure
// data and functions; FilterBuilder.tsx draws them, test/filter-model.test.ts proves the round trip.
// (`.js` in the import: the unit test compiles this file under Node's module resolution too.)
import type { FieldProblem } from '../api.js';

export type Logic = 'AND' | 'OR';
export type Unit = 'days' | 'hours' | 'minutes';

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
export type Operator = (typeof VALUE_OPERATORS)[number] | (typeof EVENT_OPERATORS)[number] | (typeof MEMBERSHIP_OPERATORS)[number];

export interface Filter {
  /** `email`, `subscribed`, `createdAt`, `updatedAt`, `data.<path>`; an event name for event operators; `segment` for membership. */
  field: string;
  operator: Operator;
  value?: unknown;
  unit?: Unit;
}

export interface FilterGroup {
  /** ANDed with one another and with `conditions`. */
  filters: Filter[];
  conditions?: FilterCondition | null;
}

export interface FilterCondition {
  logic: Logic;
  groups: FilterGroup[];
}

/** The engine's bounds: conditions nest at most 10 levels and hold at most 200 filters. */
export const MAX_DEPTH = 10;
export const MAX_FILTERS = 200;
export const SEGMENT_FIELD = 'segment';

/** The type GET /contacts/fields infers for a field; `unknown` for a data path it does not list (a nested key). */
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'array' | 'mixed' | 'unknown';

export type FilterKind = 'field' | 'event' | 'segment';

/** A contact field GET /contacts/fields lists: its path, inferred type and the share of contacts that have it. */
export interface KnownField {
  field: string;
  type: FieldType;
  coverage: number;
}

export const STANDARD_FIELDS: { field: string; label: string; type: FieldType }[] = [
  { field: 'email', label: 'Email', type: 'string' },
  { field: 'subscribed', label: 'Subscribed', type: 'boolean' },
  { field: 'createdAt', label: 'Created', type: 'date' },
  { field: 'updatedAt', label: 'Updated', type: 'date' },
];

/** A field's type: the standard fields' own, a data field's as inferred, else `unknown`. */
export const typeOf = (fields: KnownField[], field: string): FieldType =>
  STANDARD_FIELDS.find((s) => s.field === field)?.type ?? fields.find((f) => f.field === field)?.type ?? 'unknown';

export const kindOf = (f: Filter): FilterKind =>
  (EVENT_OPERATORS as readonly string[]).includes(f.operator) ? 'event' : (MEMBERSHIP_OPERATORS as readonly string[]).includes(f.operator) ? 'segment' : 'field';

const COMPARE = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'] as const;
const PRESENCE = ['exists', 'notExists'] as const;

/** The value operators that apply to a field: the engine's table for the standard fields, the sensible ones for a data field's inferred type. */
export function operatorsFor(field: string, type: FieldType): Operator[] {
  if (field === 'email') return ['equals', 'notEquals', 'contains', 'notContains', ...PRESENCE];
  if (field === 'subscribed') return ['equals', 'notEquals', ...PRESENCE];
  switch (type) {
    case 'string':
      return ['equals', 'notEquals', 'contains', 'notContains', ...PRESENCE];
    case 'number':
      return ['equals', 'notEquals', ...COMPARE, ...PRESENCE];
    case 'boolean':
    case 'object':
      return ['equals', 'notEquals', ...PRESENCE];
    case 'date':
      return ['equals', 'notEquals', ...COMPARE, 'within', 'olderThan', ...PRESENCE];
    case 'array':
      return ['contains', 'notContains', 'equals', 'notEquals', ...PRESENCE];
    default:
      return [...VALUE_OPERATORS];
  }
}

/** The operators a condition's row offers: its kind's, a field's by its type, and the filter's own when the type does not suggest it (set through the API), so it is kept rather than lost. */
export function operatorsOf(f: Filter, type: FieldType): Operator[] {
  const kind = kindOf(f);
  const offered: Operator[] = kind === 'event' ? [...EVENT_OPERATORS] : kind === 'segment' ? [...MEMBERSHIP_OPERATORS] : operatorsFor(f.field, type);
  return offered.includes(f.operator) ? offered : [...offered, f.operator];
}

const DATE_WORDS: Partial<Record<Operator, string>> = {
  greaterThan: 'is after',
  lessThan: 'is before',
  greaterThanOrEqual: 'is on or after',
  lessThanOrEqual: 'is on or before',
};

const WORDS: Record<Operator, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  contains: 'contains',
  notContains: 'does not contain',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  greaterThanOrEqual: 'is at least',
  lessThanOrEqual: 'is at most',
  exists: 'is set',
  notExists: 'is not set',
  within: 'is within the last',
  olderThan: 'is longer ago than',
  triggered: 'happened',
  notTriggered: 'never happened',
  triggeredWithin: 'happened within the last',
  triggeredOlderThan: 'happened longer ago than',
  notTriggeredWithin: 'did not happen within the last',
  memberOfSegment: 'is a member of',
  notMemberOfSegment: 'is not a member of',
};

export const operatorText = (op: Operator, type: FieldType): string => (type === 'date' ? DATE_WORDS[op] : undefined) ?? WORDS[op];

/** What a filter's value is edited as. `span` is a number of units; `choice` lets the person say the type (a field whose type is not one). */
export type ValueKind = 'none' | 'span' | 'segment' | 'text' | 'number' | 'boolean' | 'date' | 'json' | 'choice';

/** The types a value may be given as when the field's type does not say: equality takes any, ordering numbers and dates. */
export const CHOSEN_TYPES = { text: 'text', number: 'number', boolean: 'true or false', date: 'date', json: 'JSON' } as const;
export type ChosenType = keyof typeof CHOSEN_TYPES;

export function valueKindOf(f: Filter, type: FieldType): ValueKind {
  switch (f.operator) {
    case 'exists':
    case 'notExists':
    case 'triggered':
    case 'notTriggered':
      return 'none';
    case 'within':
    case 'olderThan':
    case 'triggeredWithin':
    case 'triggeredOlderThan':
    case 'notTriggeredWithin':
      return 'span';
    case 'memberOfSegment':
    case 'notMemberOfSegment':
      return 'segment';
    case 'contains':
    case 'notContains':
      return 'text';
  }
  if (f.field === 'email') return 'text';
  if (f.field === 'subscribed') return 'boolean';
  switch (type) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'object':
    case 'array':
      return 'json';
    default:
      return 'choice';
  }
}

const ALL_CHOICES = Object.keys(CHOSEN_TYPES) as ChosenType[];

export const choicesFor = (op: Operator): ChosenType[] => ((COMPARE as readonly string[]).includes(op) ? ['number', 'date'] : ALL_CHOICES);

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The type a value already has, for a field whose type does not say. */
export function chosenTypeOf(value: unknown, allowed: ChosenType[]): ChosenType {
  const found: ChosenType =
    typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : typeof value === 'object' && value !== null ? 'json' : typeof value === 'string' && DATE_TEXT.test(value) ? 'date' : 'text';
  return allowed.includes(found) ? found : allowed[0]!;
}

/** The value an editor of this kind starts with (undefined: nothing entered yet, which the API reports as missing). */
export function startValue(kind: ValueKind | ChosenType): unknown {
  switch (kind) {
    case 'text':
      return '';
    case 'boolean':
      return true;
    case 'span':
      return 30;
    default:
      return undefined;
  }
}

/**
 * The filter with `field` and `operator` (of the field's type `after`; `before` was the old field's):
 * its value kept when the new operator wants the same kind of value, else started anew; a unit for
 * a time span.
 */
export function rebuilt(f: Filter, field: string, operator: Operator, before: FieldType, after: FieldType): Filter {
  const next: Filter = { field, operator };
  const kind = valueKindOf(next, after);
  if (kind === 'none') return next;
  const fits = kind !== 'choice' || choicesFor(operator).includes(chosenTypeOf(f.value, ALL_CHOICES));
  const keep = f.value !== undefined && kind === valueKindOf(f, before) && fits;
  const value = keep ? f.value : startValue(kind === 'choice' ? choicesFor(operator)[0]! : kind);
  if (value !== undefined) next.value = value;
  if (kind === 'span') next.unit = f.unit ?? 'days';
  return next;
}

/** A filter of `kind` to start from, given the first field, event name and segment the project has. */
export function newFilter(kind: FilterKind, first: { field?: { field: string; type: FieldType }; event?: string; segment?: string }): Filter {
  if (kind === 'event') return { field: first.event ?? '', operator: 'triggered' };
  if (kind === 'segment') return { field: SEGMENT_FIELD, operator: 'memberOfSegment', value: first.segment ?? '' };
  const { field, type } = first.field ?? { field: 'email', type: 'string' as const };
  return rebuilt({ field, operator: 'equals' }, field, operatorsFor(field, type)[0]!, type, type);
}

export const emptyCondition = (): FilterCondition => ({ logic: 'AND', groups: [{ filters: [] }] });

export function countFilters(c: FilterCondition): number {
  return c.groups.reduce((n, g) => n + g.filters.length + (g.conditions ? countFilters(g.conditions) : 0), 0);
}

/** The instant of a date value as the engine reads it (a text without a zone is UTC), or NaN. */
function instantOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !DATE_TEXT.test(value)) return NaN;
  const iso = value.replace(' ', 'T');
  return Date.parse(iso.includes('T') && !/(Z|[+-]\d{2}:\d{2})$/.test(iso) ? `${iso}Z` : iso);
}

/** A datetime-local input's text for a date value (in the person's own time zone), or '' for a value that is not one. */
function localInput(value: unknown): string {
  const ms = instantOf(value);
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's text (the person's own time zone) as the ISO 8601 instant the API takes. */
function fromLocalInput(text: string): string | undefined {
  const ms = text === '' ? NaN : new Date(text).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

const numberOf = (text: string): number | undefined => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The kinds of value an editor is drawn for (a `choice` is drawn as the chosen one). */
export type EditorKind = Exclude<ValueKind, 'none' | 'choice'>;

/** The text the editor of `kind` shows for a value ('' for one it cannot show). */
export function textOf(kind: EditorKind, value: unknown): string {
  switch (kind) {
    case 'text':
      return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    case 'number':
    case 'span':
      return typeof value === 'number' ? String(value) : '';
    case 'boolean':
      return String(value === true);
    case 'date':
      return localInput(value);
    case 'json':
      return value === undefined ? '' : JSON.stringify(value);
    case 'segment':
      return typeof value === 'string' ? value : '';
  }
}

/** The value of an editor's text, or undefined while the text is not one yet (an empty number, JSON that does not parse), which the API reports as missing. */
export function valueOfText(kind: EditorKind, text: string): unknown {
  switch (kind) {
    case 'text':
    case 'segment':
      return text;
    case 'number':
    case 'span':
      return numberOf(text);
    case 'boolean':
      return text === 'true';
    case 'date':
      return fromLocalInput(text);
    case 'json':
      return jsonOf(text);
  }
}

/** The API's field problems of a condition it got under `prefix` (`condition`, `audienceCondition`), with paths relative to the condition. */
export const problemsWithin = (fields: FieldProblem[], prefix: string): FieldProblem[] =>
  fields.flatMap((p) => (p.field === prefix ? [{ ...p, field: '' }] : p.field.startsWith(`${prefix}.`) ? [{ ...p, field: p.field.slice(prefix.length + 1) }] : []));

/** Problems at `path` or inside it. */
export const problemsUnder = (problems: FieldProblem[], path: string): FieldProblem[] =>
  problems.filter((p) => p.field === path || p.field.startsWith(`${path}.`));

/** The name of a group: "1" at the top, "1.2" for the second group of group 1's nested condition. */
export const groupName = (parent: string, index: number): string => (parent === '' ? String(index + 1) : `${parent}.${index + 1}`);

/** Where a path relative to the condition points, in the builder's own words ("Condition 3 of group 1.2"). */
export function placeOf(path: string): string {
  const parts = path === '' ? [] : path.split('.');
  let group = '';
  let place = 'The condition';
  for (let i = 0; i < parts.length; i++) {
    const index = Number(parts[i + 1]);
    if (parts[i] === 'groups' && Number.isInteger(index)) {
      group = groupName(group, index);
      place = `Group ${group}`;
      i++;
    } else if (parts[i] === 'filters' && Number.isInteger(index)) {
      place = `Condition ${index + 1} of group ${group}`;
      i++;
    } else if (parts[i] === 'conditions') {
      place = `The nested condition of group ${group}`;
    }
  }
  return place;
}
