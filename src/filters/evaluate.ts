// The memory engine: a Predicate decided for one contact (workflow conditions, membership tracking).
// The SQL engine (sqlite.ts) answers the same for every contact; test/filters.test.ts holds them together.
import type { Contact } from '../contacts/store.js';
import { boundAt, type Bound, type Comparison, type DataTest, type Expected, type Predicate } from './predicate.js';
import { dateValue, foldCase, numericValue } from './values.js';

/** The first and last time a contact had an event of one name. */
export interface EventSpan {
  first: number;
  last: number;
}

/** What a predicate may ask about one contact beyond its row. */
export interface ContactFacts {
  contact: Contact;
  eventSpan(name: string): EventSpan | null;
  /** Member rows of static segments. */
  isMember(segmentId: string): boolean;
}

function compare(a: number, comparison: Comparison, b: number): boolean {
  switch (comparison) {
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    case '=':
      return a === b;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a dotted path through nested objects (never into arrays, as the JSON path of the SQL form). */
function valueAt(data: Record<string, unknown>, path: string[]): unknown {
  let value: unknown = data;
  for (const key of path) {
    if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function equalsExpected(value: unknown, expected: Expected): boolean {
  switch (expected.type) {
    case 'number':
      return numericValue(value) === expected.number;
    case 'string':
      if (typeof value === 'string') return foldCase(value) === expected.folded;
      return typeof value === 'number' && expected.number !== null && value === expected.number;
    case 'boolean':
      return value === expected.value;
    case 'json':
      return typeof value === 'object' && value !== null && JSON.stringify(value) === expected.text;
  }
}

function dataTest(value: unknown, test: DataTest, now: number): boolean {
  if (value === undefined || value === null) return false;
  switch (test.op) {
    case 'exists':
      return true;
    case 'equals':
      return equalsExpected(value, test.expected);
    case 'contains':
      if (typeof value === 'string') return foldCase(value).includes(test.folded);
      return Array.isArray(value) && value.some((element) => equalsExpected(element, test.element));
    case 'compare': {
      const read = test.mode === 'number' ? numericValue(value) : typeof value === 'string' ? dateValue(value) : null;
      return read !== null && compare(read, test.comparison, boundAt(test.bound, now));
    }
  }
}

function eventTest(span: EventSpan | null, since: Bound | undefined, before: Bound | undefined, now: number): boolean {
  if (!span) return false;
  if (since && span.last < boundAt(since, now)) return false;
  if (before && span.first >= boundAt(before, now)) return false;
  return true;
}

/** Whether the contact satisfies the predicate at `now`. */
export function evaluate(predicate: Predicate, facts: ContactFacts, now: number): boolean {
  const { contact } = facts;
  switch (predicate.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'and':
      return predicate.of.every((p) => evaluate(p, facts, now));
    case 'or':
      return predicate.of.some((p) => evaluate(p, facts, now));
    case 'not':
      return !evaluate(predicate.of, facts, now);
    case 'email': {
      const email = contact.email.toLowerCase();
      return predicate.op === 'equals' ? email === predicate.text : email.includes(predicate.text);
    }
    case 'subscribed':
      return contact.subscribed === predicate.value;
    case 'time':
      return compare(predicate.column === 'createdAt' ? contact.createdAt : contact.updatedAt, predicate.comparison, boundAt(predicate.bound, now));
    case 'data':
      return dataTest(valueAt(contact.data, predicate.path), predicate.test, now);
    case 'event':
      return eventTest(facts.eventSpan(predicate.name), predicate.since, predicate.before, now);
    case 'member':
      return facts.isMember(predicate.segmentId);
  }
}
