/**
 * One table of filter cases with its fixture, run by both engines: in process against a store
 * (test/filters.test.ts) and through the daemon's API (test/segment-filters.test.ts). Times are
 * relative to the moment the table is evaluated ("now"), and events never predate their contact,
 * so the API can build the same fixture by moving the daemon's clock.
 */
import type { FilterCondition } from '../../src/filters/types.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Contacts are made in two waves: OLD (10 days and an hour before now) and RECENT (an hour before now). */
export const OLD_AGO = 10 * DAY + HOUR;
export const RECENT_AGO = HOUR;

export interface FixtureContact {
  key: string;
  email: string;
  ago: number;
  data: (now: number) => Record<string, unknown>;
  /** Unsubscribed at RECENT (emits contact.unsubscribed then). */
  unsubscribes?: boolean;
}

export interface FixtureEvent {
  contact: string;
  name: string;
  ago: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** `2024-01-01T12:00:00+02:00`: the same instant written with a zone. */
const withZone = (ms: number) => new Date(ms + 2 * HOUR).toISOString().slice(0, 19) + '+02:00';

export const CONTACTS: FixtureContact[] = [
  {
    key: 'ann',
    email: 'Ann@Example.com',
    ago: OLD_AGO,
    data: (now) => ({ plan: 'Pro', age: 30, score: '42', tags: ['vip', 'beta'], signup: iso(now - 3 * DAY), address: { city: 'Berlin' }, flag: true, nums: [1, 2] }),
  },
  {
    key: 'bob',
    email: 'bob@example.org',
    ago: OLD_AGO,
    unsubscribes: true,
    data: (now) => ({ plan: 'free', age: '25', score: 42, tags: ['beta'], signup: iso(now - 40 * DAY).slice(0, 10), flag: false, address: { city: 'paris' } }),
  },
  {
    key: 'cid',
    email: 'cid@test.dev',
    ago: RECENT_AGO,
    data: () => ({ plan: 'PRO ', age: 'thirty', score: 'n/a', tags: 'vip', signup: 'not a date', note: 'Hello World' }),
  },
  { key: 'dee', email: 'dee@example.com', ago: RECENT_AGO, data: () => ({}) },
  {
    key: 'eve',
    email: 'eve@example.com',
    ago: RECENT_AGO,
    data: (now) => ({ plan: 'pro', age: 41.5, score: '4.2e1', signup: withZone(now - 2 * HOUR), address: 'Berlin', nums: ['2'] }),
  },
];

export const EVENTS: FixtureEvent[] = [
  { contact: 'ann', name: 'purchase', ago: OLD_AGO },
  { contact: 'ann', name: 'login', ago: RECENT_AGO },
  { contact: 'bob', name: 'purchase', ago: RECENT_AGO },
  { contact: 'eve', name: 'purchase', ago: RECENT_AGO },
];

/** The static segment S holds these; the dynamic segment D is `plan equals pro`. */
export const STATIC_MEMBERS = ['ann', 'dee'];
export const DYNAMIC_CONDITION: FilterCondition = { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] };

export interface Refs {
  staticId: string;
  dynamicId: string;
  now: number;
}

export interface FilterCase {
  name: string;
  condition: (refs: Refs) => FilterCondition;
  expect: string[];
}

type F = FilterCondition['groups'][number]['filters'][number];
const one = (filter: F): FilterCondition => ({ logic: 'AND', groups: [{ filters: [filter] }] });
const c = (name: string, filter: (refs: Refs) => F, expect: string[]): FilterCase => ({ name, condition: (refs) => one(filter(refs)), expect });

export const CASES: FilterCase[] = [
  c('equals ignores case', () => ({ field: 'data.plan', operator: 'equals', value: 'pro' }), ['ann', 'eve']),
  c('equals: a numeric string matches the number', () => ({ field: 'data.age', operator: 'equals', value: 25 }), ['bob']),
  c('equals: the number matches a numeric string', () => ({ field: 'data.age', operator: 'equals', value: '30' }), ['ann']),
  c('equals: numeric strings in any JSON form', () => ({ field: 'data.score', operator: 'equals', value: 42 }), ['ann', 'bob', 'eve']),
  c('equals true is a boolean', () => ({ field: 'data.flag', operator: 'equals', value: true }), ['ann']),
  c('equals "true" is a string, not the boolean', () => ({ field: 'data.flag', operator: 'equals', value: 'true' }), []),
  c('equals an array', () => ({ field: 'data.tags', operator: 'equals', value: ['vip', 'beta'] }), ['ann']),
  c('a string that reads like JSON is not the array', () => ({ field: 'data.tags', operator: 'equals', value: '["vip","beta"]' }), []),
  c('a boolean is not the number 1', () => ({ field: 'data.flag', operator: 'equals', value: '1' }), []),
  c('a boolean is not a number to compare', () => ({ field: 'data.flag', operator: 'greaterThanOrEqual', value: 0 }), []),
  c("contains never reads a number's digits", () => ({ field: 'data.age', operator: 'contains', value: '3' }), []),
  c('equals an object', () => ({ field: 'data.address', operator: 'equals', value: { city: 'Berlin' } }), ['ann']),
  c('equals on email ignores case', () => ({ field: 'email', operator: 'equals', value: 'ANN@example.COM' }), ['ann']),
  c('subscribed equals false', () => ({ field: 'subscribed', operator: 'equals', value: false }), ['bob']),
  c('notEquals holds for a missing field', () => ({ field: 'data.plan', operator: 'notEquals', value: 'pro' }), ['bob', 'cid', 'dee']),
  c('contains: an array element, or a substring', () => ({ field: 'data.tags', operator: 'contains', value: 'VIP' }), ['ann', 'cid']),
  c('contains a substring ignoring case', () => ({ field: 'data.note', operator: 'contains', value: 'world' }), ['cid']),
  c('contains a number among elements', () => ({ field: 'data.nums', operator: 'contains', value: 2 }), ['ann', 'eve']),
  c('contains on email', () => ({ field: 'email', operator: 'contains', value: 'EXAMPLE' }), ['ann', 'bob', 'dee', 'eve']),
  c('notContains holds for a missing field', () => ({ field: 'data.tags', operator: 'notContains', value: 'beta' }), ['cid', 'dee', 'eve']),
  c('greaterThan compares numbers and numeric strings', () => ({ field: 'data.age', operator: 'greaterThan', value: 29 }), ['ann', 'eve']),
  c('lessThanOrEqual with a numeric string value', () => ({ field: 'data.age', operator: 'lessThanOrEqual', value: '25' }), ['bob']),
  c('greaterThanOrEqual reads 4.2e1 as 42', () => ({ field: 'data.score', operator: 'greaterThanOrEqual', value: 42 }), ['ann', 'bob', 'eve']),
  c('lessThan with a number never matches date strings', () => ({ field: 'data.signup', operator: 'lessThan', value: 99999999999999 }), []),
  c('greaterThan compares dates as instants', ({ now }) => ({ field: 'data.signup', operator: 'greaterThan', value: iso(now - 10 * DAY) }), ['ann', 'eve']),
  c('createdAt lessThan a date', ({ now }) => ({ field: 'createdAt', operator: 'lessThan', value: iso(now - 5 * DAY) }), ['ann', 'bob']),
  c('exists', () => ({ field: 'data.plan', operator: 'exists' }), ['ann', 'bob', 'cid', 'eve']),
  c('notExists', () => ({ field: 'data.plan', operator: 'notExists' }), ['dee']),
  c('a nested path exists only in objects', () => ({ field: 'data.address.city', operator: 'exists' }), ['ann', 'bob']),
  c('a nested path equals', () => ({ field: 'data.address.city', operator: 'equals', value: 'BERLIN' }), ['ann']),
  c('createdAt within days', () => ({ field: 'createdAt', operator: 'within', value: 2, unit: 'days' }), ['cid', 'dee', 'eve']),
  c('createdAt olderThan days', () => ({ field: 'createdAt', operator: 'olderThan', value: 5 }), ['ann', 'bob']),
  c('a data date within days (any zone, date-only)', () => ({ field: 'data.signup', operator: 'within', value: 7, unit: 'days' }), ['ann', 'eve']),
  c('a data date olderThan days', () => ({ field: 'data.signup', operator: 'olderThan', value: 30, unit: 'days' }), ['bob']),
  c('triggered', () => ({ field: 'purchase', operator: 'triggered' }), ['ann', 'bob', 'eve']),
  c('triggeredWithin', () => ({ field: 'purchase', operator: 'triggeredWithin', value: 2, unit: 'days' }), ['bob', 'eve']),
  c('triggeredOlderThan', () => ({ field: 'purchase', operator: 'triggeredOlderThan', value: 5, unit: 'days' }), ['ann']),
  c('notTriggered', () => ({ field: 'purchase', operator: 'notTriggered' }), ['cid', 'dee']),
  c('notTriggeredWithin', () => ({ field: 'purchase', operator: 'notTriggeredWithin', value: 2, unit: 'days' }), ['ann', 'cid', 'dee']),
  c('an internal event name', () => ({ field: 'contact.unsubscribed', operator: 'triggered' }), ['bob']),
  c('triggeredWithin hours', () => ({ field: 'login', operator: 'triggeredWithin', value: 3, unit: 'hours' }), ['ann']),
  c('memberOfSegment, static', ({ staticId }) => ({ field: 'segment', operator: 'memberOfSegment', value: staticId }), ['ann', 'dee']),
  c('notMemberOfSegment, static', ({ staticId }) => ({ field: 'segment', operator: 'notMemberOfSegment', value: staticId }), ['bob', 'cid', 'eve']),
  c('memberOfSegment, dynamic', ({ dynamicId }) => ({ field: 'segment', operator: 'memberOfSegment', value: dynamicId }), ['ann', 'eve']),
  c('notMemberOfSegment, dynamic', ({ dynamicId }) => ({ field: 'segment', operator: 'notMemberOfSegment', value: dynamicId }), ['bob', 'cid', 'dee']),
  {
    name: 'groups ORed',
    condition: () => ({
      logic: 'OR',
      groups: [
        { filters: [{ field: 'data.plan', operator: 'equals', value: 'free' }] },
        { filters: [{ field: 'purchase', operator: 'triggeredWithin', value: 2, unit: 'days' }] },
      ],
    }),
    expect: ['bob', 'eve'],
  },
  {
    name: 'filters ANDed with a nested condition',
    condition: () => ({
      logic: 'AND',
      groups: [
        {
          filters: [{ field: 'subscribed', operator: 'equals', value: true }],
          conditions: {
            logic: 'OR',
            groups: [{ filters: [{ field: 'data.age', operator: 'greaterThan', value: 40 }] }, { filters: [{ field: 'email', operator: 'contains', value: 'cid' }] }],
          },
        },
      ],
    }),
    expect: ['cid', 'eve'],
  },
  { name: 'a group without filters matches everyone', condition: () => ({ logic: 'AND', groups: [{ filters: [] }] }), expect: ['ann', 'bob', 'cid', 'dee', 'eve'] },
];

/**
 * Data keys of every awkward kind, each the only key of one contact's data (`{[key]: 'hit ' + key}`)
 * and nested under itself in another's (`{[key]: {[key]: 'deep'}}`). A filter on `data.<key>` (and
 * `data.<key>.<key>`) must find exactly that contact in both engines: every key but one holding a
 * dot is a JSON path label of its own.
 */
export const AWKWARD_KEYS = ['a\\', '\\', 'a\\b', 'a\\\\b', '\\u0041', '\\"', 'a"b', '"', '$', '*', '[0]', 'a[0]', 'a]', "'", 'ü', '😀', 'a b', ' ', '#', '%', '?', '-', 'A'];

/** Data fields refused at validation (422 on field): empty keys, control characters. */
export const REFUSED_DATA_FIELDS = ['data.', 'data.a.', 'data..a', 'data.a..b', 'data.a\u0001', 'data.\u007f'];
