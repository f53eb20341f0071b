// The SQL engine: a Predicate as one parameterised WHERE over `contacts c`, and the queries that
// run it. Everything SQLite-specific of filters is in this file (JSON functions, unixepoch, GLOB);
// another store backend replaces this file. Input never becomes SQL text: values are bound, and
// the text is made of fixed pieces chosen by the predicate's shape.
import { CONTACT_COLUMNS, toContact, type Contact, type ContactRow } from '../contacts/store.js';
import { sql, type Db } from '../store/db.js';
import type { ReadOptions, Reader } from '../store/reader.js';
import type { ContactFacts, EventSpan } from './evaluate.js';
import { boundAt, type Bound, type Comparison, type DataTest, type Expected, type Predicate } from './predicate.js';

/** SQL text with its bound values. */
interface Sql {
  text: string;
  params: unknown[];
}

const raw = (text: string): Sql => ({ text, params: [] });

/** A template whose interpolations are bound values, or SQL pieces made here. */
function q(strings: TemplateStringsArray, ...parts: (Sql | string | number)[]): Sql {
  let text = strings[0]!;
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    if (typeof part === 'object') {
      text += part.text;
      params.push(...part.params);
    } else {
      text += '?';
      params.push(part);
    }
    text += strings[i + 1]!;
  });
  return { text, params };
}

const join = (parts: Sql[], separator: string): Sql => ({ text: parts.map((p) => p.text).join(separator), params: parts.flatMap((p) => p.params) });

/**
 * Terms joined by AND or OR as a balanced tree, in their order: SQLite refuses expressions deeper
 * than 1000, and a flat list is a chain as deep as it is long (a condition expands to 2000 filters).
 */
function balanced(parts: Sql[], op: 'AND' | 'OR'): Sql {
  if (parts.length === 1) return parts[0]!;
  const half = Math.ceil(parts.length / 2);
  return q`(${balanced(parts.slice(0, half), op)} ${raw(op)} ${balanced(parts.slice(half), op)})`;
}

/**
 * How event and membership tests are asked. `scan` visits every contact (counts): each test
 * becomes a set, computed once per query from the events index by name. `seek` stops early or
 * visits few contacts (pages, batches): each test is a lookup per contact in the events index by contact.
 */
export type Shape = 'scan' | 'seek';

export interface CompileOptions {
  projectId: string;
  now: number;
  shape: Shape;
}

/** A JSON value as SQL sees it: its json_type and its value. */
interface Operand {
  type: Sql;
  value: Sql;
}

const COMPARE: Record<Comparison, Sql> = { '>': raw('>'), '<': raw('<'), '>=': raw('>='), '<=': raw('<='), '=': raw('=') };

/**
 * A data key as a quoted label of a JSON path. SQLite ends the label at the first `"` and decodes
 * JSON escapes inside it, so a backslash is doubled and quotes and control characters are written
 * as \u escapes: every key is a valid path that names exactly that key (as valueAt reads it).
 */
const label = (key: string) => `"${key.replace(/[\\"\u0000-\u001f]/g, (ch) => (ch === '\\' ? '\\\\' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;

const jsonPath = (path: readonly string[]): string => '$' + path.map((key) => `.${label(key)}`).join('');

const dataOperand = (path: string[]): Operand => ({ type: q`json_type(c.data, ${jsonPath(path)})`, value: q`json_extract(c.data, ${jsonPath(path)})` });
const ELEMENT: Operand = { type: raw('j.type'), value: raw('j.value') };

/** A number, or a text that is a JSON number (values.ts numericString), else NULL. */
const numeric = (o: Operand): Sql =>
  q`(CASE ${o.type} WHEN 'integer' THEN ${o.value} WHEN 'real' THEN ${o.value} WHEN 'text' THEN (CASE WHEN json_valid(${o.value}) AND json_type(${o.value}) IN ('integer', 'real') THEN json_extract(${o.value}, '$') END) END)`;

/** The ms of a text that is a date (values.ts dateValue: the same prefix, then SQLite's grammar), else NULL. No number, boolean or JSON text has that prefix. */
const date = (o: Operand): Sql =>
  q`(CASE WHEN ${o.value} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN CAST(round(unixepoch(${o.value}, 'subsec') * 1000) AS INTEGER) END)`;

// In each test the value is compared first and its type asked only where the comparison alone
// could be fooled: SQLite orders every number before every text, so a number (or a boolean, which
// json_extract answers as 1 or 0) never equals a text. The cheap rejection runs on every row, the
// second JSON call only on the few that pass it.
function equals(o: Operand, expected: Expected): Sql {
  switch (expected.type) {
    case 'number':
      return q`${numeric(o)} = ${expected.number}`;
    case 'string': {
      // Only an array or object (JSON text) could pass for a text that starts like one.
      const text = /^[[{]/.test(expected.folded)
        ? q`(${o.value} = ${expected.folded} COLLATE NOCASE AND ${o.type} = 'text')`
        : q`${o.value} = ${expected.folded} COLLATE NOCASE`;
      return expected.number === null ? text : q`(${text} OR (${o.value} = ${expected.number} AND ${o.type} IN ('integer', 'real')))`;
    }
    case 'boolean':
      return q`${o.type} = ${raw(expected.value ? "'true'" : "'false'")}`;
    case 'json':
      return q`(${o.value} = ${expected.text} AND ${o.type} IN ('array', 'object'))`;
  }
}

function dataTest(path: string[], test: DataTest, now: number): Sql {
  const o = dataOperand(path);
  switch (test.op) {
    case 'exists':
      return q`IFNULL(${o.type}, 'null') <> 'null'`;
    case 'equals':
      return equals(o, test.expected);
    case 'contains':
      return q`((instr(lower(${o.value}), ${test.folded}) > 0 AND ${o.type} = 'text') OR (${o.type} = 'array' AND EXISTS (SELECT 1 FROM json_each(c.data, ${jsonPath(path)}) j WHERE ${equals(ELEMENT, test.element)})))`;
    case 'compare':
      return q`${test.mode === 'number' ? numeric(o) : date(o)} ${COMPARE[test.comparison]} ${boundAt(test.bound, now)}`;
  }
}

function eventWindow(since: Bound | undefined, before: Bound | undefined, now: number): Sql {
  const parts: Sql[] = [];
  if (since) parts.push(q` AND e.created_at >= ${boundAt(since, now)}`);
  if (before) parts.push(q` AND e.created_at < ${boundAt(before, now)}`);
  return join(parts, '');
}

/**
 * What a test costs per contact: a column, a probe of a set built once (scan), JSON functions, an
 * index lookup per contact (seek). ANDed tests run cheapest first, so the costly ones see only the
 * contacts the cheap ones let through; the answer is the same in any order.
 */
function cost(p: Predicate, shape: Shape): number {
  switch (p.kind) {
    case 'and':
    case 'or':
      return Math.max(...p.of.map((x) => cost(x, shape)));
    case 'not':
      return cost(p.of, shape);
    case 'data':
      return 2;
    case 'event':
    case 'member':
      return shape === 'scan' ? 1 : 3;
    default:
      return 0;
  }
}

const cheapestFirst = (parts: Predicate[], shape: Shape) => [...parts].sort((a, b) => cost(a, shape) - cost(b, shape));

/** The predicate as a WHERE fragment over `contacts c` (the caller adds the project scope on c). */
export function whereOf(p: Predicate, opts: CompileOptions): Sql {
  const { now, projectId, shape } = opts;
  switch (p.kind) {
    case 'all':
      return raw('1');
    case 'none':
      return raw('0');
    case 'and':
      return balanced(cheapestFirst(p.of, shape).map((x) => whereOf(x, opts)), 'AND');
    case 'or':
      return balanced(p.of.map((x) => whereOf(x, opts)), 'OR');
    case 'not':
      // A missing JSON value makes a test NULL, and NOT NULL is NULL: count it as false first.
      return q`NOT COALESCE(${whereOf(p.of, opts)}, 0)`;
    case 'email':
      return p.op === 'equals' ? q`c.email_lc = ${p.text}` : q`instr(c.email_lc, ${p.text}) > 0`;
    case 'subscribed':
      return raw(p.value ? 'c.subscribed = 1' : 'c.subscribed = 0');
    case 'time':
      return q`${raw(p.column === 'createdAt' ? 'c.created_at' : 'c.updated_at')} ${COMPARE[p.comparison]} ${boundAt(p.bound, now)}`;
    case 'data':
      return dataTest(p.path, p.test, now);
    case 'event': {
      const window = eventWindow(p.since, p.before, now);
      // An event's contact is in the event's project, so the lookup by contact needs no project term.
      return shape === 'seek'
        ? q`EXISTS (SELECT 1 FROM events e WHERE budget() AND e.contact_id = c.id AND e.name = ${p.name}${window})`
        : q`c.id IN (SELECT e.contact_id FROM events e WHERE budget() AND e.project_id = ${projectId} AND e.name = ${p.name}${window})`;
    }
    case 'member':
      return shape === 'seek'
        ? q`EXISTS (SELECT 1 FROM segment_members m WHERE budget() AND m.segment_id = ${p.segmentId} AND m.contact_id = c.id AND m.project_id = ${projectId})`
        : q`c.id IN (SELECT m.contact_id FROM segment_members m WHERE budget() AND m.segment_id = ${p.segmentId} AND m.project_id = ${projectId})`;
  }
}

// Each condition makes its own SQL text: statements are prepared per call (not through the
// connection's statement cache, which would grow with every condition ever asked). Every read of
// many contacts runs on the reader threads under its budget: budget() comes first in each WHERE,
// so it is asked for every contact visited, whatever the rest costs, and in the subqueries that
// visit events and member rows.

/** How many contacts of the project match. */
export async function countMatching(reader: Reader, read: ReadOptions, p: Predicate, now: number): Promise<number> {
  const query = q`SELECT COUNT(*) AS n FROM contacts c WHERE budget() AND c.project_id = ${read.projectId} AND ${whereOf(p, { projectId: read.projectId, now, shape: 'scan' })}`;
  return (await reader.get<{ n: number }>(read, query.text, query.params))!.n;
}

/** One page of matching contacts, newest first. */
export async function pageMatching(reader: Reader, read: ReadOptions, p: Predicate, now: number, page: { offset: number; limit: number }): Promise<Contact[]> {
  const query = q`SELECT ${raw(CONTACT_COLUMNS)} FROM contacts c WHERE budget() AND c.project_id = ${read.projectId} AND ${whereOf(p, { projectId: read.projectId, now, shape: 'seek' })}
    ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
  return (await reader.all<ContactRow>(read, query.text, query.params)).map(toContact);
}

/** Contacts one step of a walk visits at most: the cost of a step is bounded whatever the filter, and other projects' reads come between steps. */
export const WALK_WINDOW = 1000;

/** Walks matching contacts in id order, a step per call. */
export interface MatchingWalk {
  /**
   * The matches after `afterId` (null: from the start), at most `limit`, among the next
   * WALK_WINDOW contacts; `last` is where the next step continues (the last match when `limit`
   * were found, else the end of the window), null once every contact has been visited.
   */
  next(afterId: string | null, limit: number): Promise<{ contacts: Contact[]; last: string | null }>;
}

export function walkMatching(reader: Reader, read: ReadOptions, p: Predicate, now: number): MatchingWalk {
  const where = whereOf(p, { projectId: read.projectId, now, shape: 'seek' });
  const windowEnd = 'SELECT max(id) AS id FROM (SELECT id FROM contacts WHERE budget() AND project_id = ? AND id > ? ORDER BY id LIMIT ?)';
  const matches = `SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE budget() AND c.project_id = ? AND c.id > ? AND c.id <= ? AND ${where.text} ORDER BY c.id LIMIT ?`;
  return {
    async next(afterId, limit) {
      const after = afterId ?? '';
      const end = (await reader.get<{ id: string | null }>(read, windowEnd, [read.projectId, after, WALK_WINDOW]))?.id ?? null;
      if (end === null) return { contacts: [], last: null };
      const rows = await reader.all<ContactRow>(read, matches, [read.projectId, after, end, ...where.params, limit]);
      return { contacts: rows.map(toContact), last: rows.length === limit ? rows[rows.length - 1]!.id : end };
    },
  };
}

/** Ids of every matching contact of the project (compute's snapshot). */
export function matchingIds(reader: Reader, read: ReadOptions, p: Predicate, now: number): Promise<string[]> {
  const query = q`SELECT c.id FROM contacts c WHERE budget() AND c.project_id = ${read.projectId} AND ${whereOf(p, { projectId: read.projectId, now, shape: 'scan' })}`;
  return reader.column<string>(read, query.text, query.params);
}

/**
 * Of these contact ids, those of the project that match now: on the connection given (compute's
 * re-check, inside its write transaction), a lookup per id. The caller bounds its cost with
 * withinBudget (store/budget.ts).
 */
export function matchingAmong(db: Db, p: Predicate, opts: Omit<CompileOptions, 'shape'>, ids: readonly string[]): Set<string> {
  const query = q`SELECT c.id FROM contacts c WHERE budget() AND c.project_id = ${opts.projectId} AND c.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${whereOf(p, { ...opts, shape: 'seek' })}`;
  return new Set(db.prepare(query.text).pluck().all(...query.params) as string[]);
}

/** Everything a predicate may ask of one contact: its event spans for `eventNames` and its static segment rows. */
export function loadContactFacts(db: Db, projectId: string, contact: Contact, eventNames: Iterable<string>): ContactFacts {
  const names = [...eventNames];
  const spans = new Map<string, EventSpan>();
  if (names.length > 0) {
    // The contact was read within the project, and its events are in the project: the contact id scopes them.
    const rows = sql(
      db,
      `SELECT name, MIN(created_at) AS first, MAX(created_at) AS last FROM events
       WHERE contact_id = ? AND name IN (SELECT value FROM json_each(?)) GROUP BY name`,
    ).all(contact.id, JSON.stringify(names)) as { name: string; first: number; last: number }[];
    for (const row of rows) spans.set(row.name, { first: row.first, last: row.last });
  }
  const members = new Set(
    sql(db, 'SELECT segment_id FROM segment_members WHERE contact_id = ? AND project_id = ?').pluck().all(contact.id, projectId) as string[],
  );
  return { contact, eventSpan: (name) => spans.get(name) ?? null, isMember: (id) => members.has(id) };
}
