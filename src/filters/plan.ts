// From a FilterCondition of a request (or a stored one) to the Predicate both engines run: bounds,
// shape (schema/filter-condition.json), the rules of each operator, and segment references
// resolved with cycles refused. Every problem is reported at once as a 422 with field paths.
import { validationFailed, type FieldError } from '../errors.js';
import { schemaErrors } from '../http/validate.js';
import type { Bound, Comparison, Expected, Predicate } from './predicate.js';
import {
  EVENT_OPERATORS,
  MAX_DEPTH,
  MAX_FILTERS,
  MEMBERSHIP_OPERATORS,
  SEGMENT_FIELD,
  UNIT_MS,
  type EventOperator,
  type Filter,
  type FilterCondition,
  type MembershipOperator,
  type Operator,
} from './types.js';
import { dateValue, foldCase, numericValue } from './values.js';

/** What a memberOfSegment filter needs to know of a segment. */
export interface SegmentDefinition {
  id: string;
  name: string;
  type: 'DYNAMIC' | 'STATIC';
  condition: FilterCondition | null;
}

export type SegmentLookup = (id: string) => SegmentDefinition | null;

export interface PlanOptions {
  segments: SegmentLookup;
  /** Where the condition sits in the request body, for field errors (`condition`, `audienceCondition`, `config`). */
  path: string;
  /** The segment this condition belongs to: reaching it again through references is a cycle. */
  segmentId?: string;
}

/** Filters in all once referenced segments are expanded, and how deep references may chain. */
const MAX_EXPANDED_FILTERS = 2000;
const MAX_REFERENCE_CHAIN = 16;
/** Time windows up to 100 years; values of filters up to 1000 characters. */
const MAX_SPAN_MS = 36_500 * UNIT_MS.days;
const MAX_TEXT = 1000;
const MAX_PATH_KEYS = 32;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ALL: Predicate = { kind: 'all' };
const NONE: Predicate = { kind: 'none' };

function and(parts: Predicate[]): Predicate {
  const kept = parts.flatMap((p) => (p.kind === 'and' ? p.of : p.kind === 'all' ? [] : [p]));
  if (kept.some((p) => p.kind === 'none')) return NONE;
  return kept.length === 0 ? ALL : kept.length === 1 ? kept[0]! : { kind: 'and', of: kept };
}

function or(parts: Predicate[]): Predicate {
  const kept = parts.flatMap((p) => (p.kind === 'or' ? p.of : p.kind === 'none' ? [] : [p]));
  if (kept.some((p) => p.kind === 'all')) return ALL;
  return kept.length === 0 ? NONE : kept.length === 1 ? kept[0]! : { kind: 'or', of: kept };
}

function not(p: Predicate): Predicate {
  if (p.kind === 'all') return NONE;
  if (p.kind === 'none') return ALL;
  return p.kind === 'not' ? p.of : { kind: 'not', of: p };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Depth and filter count of the raw input, walked without recursion so that any nesting is refused cheaply, before the schema. */
function boundErrors(raw: unknown, path: string): FieldError[] {
  let filters = 0;
  let level: { value: unknown; path: string }[] = [{ value: raw, path }];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > MAX_DEPTH) return [{ field: level[0]!.path, message: `Conditions nest at most ${MAX_DEPTH} levels deep`, code: 'too_big' }];
    const next: typeof level = [];
    for (const { value, path: at } of level) {
      if (!isObject(value) || !Array.isArray(value.groups)) continue;
      value.groups.forEach((group: unknown, i) => {
        if (!isObject(group)) return;
        if (Array.isArray(group.filters)) filters += group.filters.length;
        if (group.conditions !== undefined && group.conditions !== null) next.push({ value: group.conditions, path: `${at}.groups.${i}.conditions` });
      });
    }
    if (filters > MAX_FILTERS) return [{ field: path, message: `A condition holds at most ${MAX_FILTERS} filters`, code: 'too_big' }];
    level = next;
  }
  return [];
}

const prefixed = (errors: FieldError[], path: string): FieldError[] =>
  errors.map((e) => ({ ...e, field: e.field === '' ? path : `${path}.${e.field}` }));

type FieldRef = { kind: 'email' } | { kind: 'subscribed' } | { kind: 'time'; column: 'createdAt' | 'updatedAt' } | { kind: 'data'; path: string[] };

function fieldRef(field: string): FieldRef | string {
  if (field === 'email') return { kind: 'email' };
  if (field === 'subscribed') return { kind: 'subscribed' };
  if (field === 'createdAt' || field === 'updatedAt') return { kind: 'time', column: field };
  if (!field.startsWith('data.')) return 'Unknown field: use email, subscribed, createdAt, updatedAt or data.<key>';
  // Any key but an empty one: the SQL engine spells each as an escaped JSON path label (sqlite.ts).
  const path = field.slice(5).split('.');
  if (path.some((key) => key === '')) return 'A data path is dot-separated keys, none of them empty (data.plan, data.address.city)';
  if (path.length > MAX_PATH_KEYS) return `A data path has at most ${MAX_PATH_KEYS} keys`;
  return { kind: 'data', path };
}

/** A filter value for equality with a data value (null is refused: notExists says that). */
function expectedOf(value: unknown): Expected | null {
  if (typeof value === 'number') return Number.isFinite(value) ? { type: 'number', number: value } : null;
  if (typeof value === 'string') return { type: 'string', folded: foldCase(value), number: numericValue(value) };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (Array.isArray(value) || isObject(value)) return { type: 'json', text: JSON.stringify(value) };
  return null;
}

/** A time given as epoch ms or an ISO 8601 date string. */
function timeOf(value: unknown): number | null {
  if (typeof value === 'string' && dateValue(value) !== null) return dateValue(value);
  const n = numericValue(value);
  return n !== null && Number.isFinite(n) ? n : null;
}

const COMPARISONS: Partial<Record<Operator, Comparison>> = {
  equals: '=',
  greaterThan: '>',
  lessThan: '<',
  greaterThanOrEqual: '>=',
  lessThanOrEqual: '<=',
};

const tooLong = (value: unknown) => typeof value === 'string' && value.length > MAX_TEXT;

class Planner {
  readonly errors: FieldError[] = [];
  private expanded = 0;
  /** Segments being expanded, outermost first. */
  private readonly chain: SegmentDefinition[] = [];

  constructor(private readonly opts: PlanOptions) {}

  condition(c: FilterCondition, path: string): Predicate {
    const groups = c.groups.map((group, i) => {
      const at = `${path}.groups.${i}`;
      const parts = group.filters.map((f, j) => this.filter(f, `${at}.filters.${j}`));
      if (group.conditions) parts.push(this.condition(group.conditions, `${at}.conditions`));
      return and(parts);
    });
    return c.logic === 'AND' ? and(groups) : or(groups);
  }

  private fail(path: string, message: string, code: string, received?: unknown): Predicate {
    const error: FieldError = { field: path, message, code };
    if (received !== undefined && (typeof received !== 'object' || received === null)) error.received = received;
    this.errors.push(error);
    return NONE;
  }

  filter(f: Filter, path: string): Predicate {
    if (++this.expanded > MAX_EXPANDED_FILTERS) {
      return this.fail(path, `The condition expands to more than ${MAX_EXPANDED_FILTERS} filters with the segments it references`, 'too_big');
    }
    if ((EVENT_OPERATORS as readonly string[]).includes(f.operator)) return this.event(f, f.operator as EventOperator, path);
    if ((MEMBERSHIP_OPERATORS as readonly string[]).includes(f.operator)) return this.membership(f, f.operator as MembershipOperator, path);
    const field = fieldRef(f.field);
    if (typeof field === 'string') return this.fail(`${path}.field`, field, 'invalid_string', f.field);
    if (tooLong(f.value)) return this.fail(`${path}.value`, `At most ${MAX_TEXT} characters`, 'too_big');
    switch (f.operator) {
      case 'exists':
        return this.exists(field);
      case 'notExists':
        return not(this.exists(field));
      case 'notEquals':
        return not(this.compare(field, { ...f, operator: 'equals' }, path));
      case 'contains':
        return this.contains(field, f, path);
      case 'notContains':
        return not(this.contains(field, f, path));
      case 'within':
      case 'olderThan':
        return this.age(field, f, path);
      default:
        return this.compare(field, f, path);
    }
  }

  private exists(field: FieldRef): Predicate {
    return field.kind === 'data' ? { kind: 'data', path: field.path, test: { op: 'exists' } } : ALL;
  }

  private unsupported(f: Filter, path: string): Predicate {
    return this.fail(`${path}.operator`, `${f.operator} does not apply to ${f.field}`, 'invalid_enum_value', f.operator);
  }

  /** equals and the ordering operators. */
  private compare(field: FieldRef, f: Filter, path: string): Predicate {
    const comparison = COMPARISONS[f.operator]!;
    const at = `${path}.value`;
    switch (field.kind) {
      case 'email':
        if (comparison !== '=') return this.unsupported(f, path);
        if (typeof f.value !== 'string') return this.fail(at, 'Expected a string', 'invalid_type', f.value);
        return { kind: 'email', op: 'equals', text: f.value.toLowerCase() };
      case 'subscribed':
        if (comparison !== '=') return this.unsupported(f, path);
        if (typeof f.value !== 'boolean') return this.fail(at, 'Expected true or false', 'invalid_type', f.value);
        return { kind: 'subscribed', value: f.value };
      case 'time': {
        const time = timeOf(f.value);
        if (time === null) return this.fail(at, 'Expected an ISO 8601 date or epoch milliseconds', 'invalid_type', f.value);
        return { kind: 'time', column: field.column, comparison, bound: { value: time } };
      }
      case 'data': {
        if (comparison === '=') {
          const expected = expectedOf(f.value);
          if (!expected) return this.fail(at, 'Expected a string, number, boolean, array or object (notExists tests for a missing field)', 'invalid_type', f.value);
          return { kind: 'data', path: field.path, test: { op: 'equals', expected } };
        }
        const number = numericValue(f.value);
        if (number !== null && Number.isFinite(number)) {
          return { kind: 'data', path: field.path, test: { op: 'compare', mode: 'number', comparison, bound: { value: number } } };
        }
        const date = typeof f.value === 'string' ? dateValue(f.value) : null;
        if (date !== null) return { kind: 'data', path: field.path, test: { op: 'compare', mode: 'date', comparison, bound: { value: date } } };
        return this.fail(at, 'Expected a number, a numeric string or an ISO 8601 date', 'invalid_type', f.value);
      }
    }
  }

  private contains(field: FieldRef, f: Filter, path: string): Predicate {
    const text = typeof f.value === 'number' && Number.isFinite(f.value) ? String(f.value) : f.value;
    if (typeof text !== 'string' || text === '') return this.fail(`${path}.value`, 'Expected a non-empty string or a number', 'invalid_type', f.value);
    if (field.kind === 'email') return { kind: 'email', op: 'contains', text: text.toLowerCase() };
    if (field.kind !== 'data') return this.unsupported(f, path);
    return { kind: 'data', path: field.path, test: { op: 'contains', folded: foldCase(text), element: expectedOf(text)! } };
  }

  /** A window of `value` units (days unless `unit` says otherwise) before now. */
  private span(f: Filter, path: string): number | null {
    const amount = numericValue(f.value);
    const ms = amount === null ? NaN : amount * UNIT_MS[f.unit ?? 'days'];
    if (!(ms > 0 && ms <= MAX_SPAN_MS)) {
      this.fail(`${path}.value`, 'Expected a positive number of units (unit: days, hours or minutes; at most 100 years)', 'invalid_type', f.value);
      return null;
    }
    return ms;
  }

  /** within: at or after now minus the span; olderThan: before it. */
  private age(field: FieldRef, f: Filter, path: string): Predicate {
    if (field.kind !== 'time' && field.kind !== 'data') return this.unsupported(f, path);
    const ago = this.span(f, path);
    if (ago === null) return NONE;
    const comparison: Comparison = f.operator === 'within' ? '>=' : '<';
    return field.kind === 'time'
      ? { kind: 'time', column: field.column, comparison, bound: { ago } }
      : { kind: 'data', path: field.path, test: { op: 'compare', mode: 'date', comparison, bound: { ago } } };
  }

  private event(f: Filter, operator: EventOperator, path: string): Predicate {
    const name = f.field;
    switch (operator) {
      case 'triggered':
        return { kind: 'event', name };
      case 'notTriggered':
        return not({ kind: 'event', name });
      default: {
        const ago = this.span(f, path);
        if (ago === null) return NONE;
        const window: { since: Bound } | { before: Bound } = operator === 'triggeredOlderThan' ? { before: { ago } } : { since: { ago } };
        const p: Predicate = { kind: 'event', name, ...window };
        return operator === 'notTriggeredWithin' ? not(p) : p;
      }
    }
  }

  private membership(f: Filter, operator: MembershipOperator, path: string): Predicate {
    if (f.field !== SEGMENT_FIELD) return this.fail(`${path}.field`, `Membership filters take the field "${SEGMENT_FIELD}" and the segment id as value`, 'invalid_literal', f.field);
    if (typeof f.value !== 'string' || !UUID.test(f.value)) return this.fail(`${path}.value`, 'Expected a segment id', 'invalid_string', f.value);
    const member = this.memberOf(f.value, `${path}.value`);
    return operator === 'notMemberOfSegment' ? not(member) : member;
  }

  /** A static segment is its member rows; a dynamic one is its condition, expanded here. */
  private memberOf(id: string, path: string): Predicate {
    const segment = this.opts.segments(id);
    if (!segment) return this.fail(path, 'No segment with this id in the project', 'invalid_reference', id);
    const names = [...this.chain.map((s) => s.name), segment.name];
    if (id === this.opts.segmentId || this.chain.some((s) => s.id === id)) {
      return this.fail(path, `Segments would contain themselves: ${names.join(' -> ')}`, 'invalid_reference', id);
    }
    if (segment.type === 'STATIC') return { kind: 'member', segmentId: id };
    if (!segment.condition) return NONE;
    if (this.chain.length >= MAX_REFERENCE_CHAIN) return this.fail(path, `Segments reference each other at most ${MAX_REFERENCE_CHAIN} deep`, 'too_big', id);
    this.chain.push(segment);
    const before = this.errors.length;
    const planned = this.condition(segment.condition, path);
    // Problems inside another segment's stored condition are reported at the filter that led there.
    for (const e of this.errors.splice(before)) {
      this.errors.push({ ...e, field: path, message: e.message.startsWith('In segment') ? e.message : `In segment "${segment.name}": ${e.message}` });
    }
    this.chain.pop();
    return planned;
  }
}

function planned(opts: PlanOptions, run: (planner: Planner) => Predicate): Predicate {
  const planner = new Planner(opts);
  const predicate = run(planner);
  if (planner.errors.length > 0) throw validationFailed(planner.errors, 'The filter condition is not valid');
  return predicate;
}

/** A FilterCondition of input: bounds, shape and rules checked, references resolved; 422 with every problem otherwise. */
export function planCondition(raw: unknown, opts: PlanOptions): Predicate {
  const shape = boundErrors(raw, opts.path);
  if (shape.length === 0) shape.push(...prefixed(schemaErrors('filter-condition', raw), opts.path));
  if (shape.length > 0) throw validationFailed(shape, 'The filter condition is not valid');
  return planned(opts, (planner) => planner.condition(raw as FilterCondition, opts.path));
}

/** One filter of input (a workflow CONDITION step), under the same rules. */
export function planFilter(raw: unknown, opts: PlanOptions): Predicate {
  const shape = prefixed(schemaErrors('filter', raw), opts.path);
  if (shape.length > 0) throw validationFailed(shape, 'The filter is not valid');
  return planned(opts, (planner) => planner.filter(raw as Filter, opts.path));
}

/** A stored condition (checked when it was saved): planned without the input checks. */
export function planStored(condition: FilterCondition, opts: PlanOptions): Predicate {
  return planned(opts, (planner) => planner.condition(condition, opts.path));
}
