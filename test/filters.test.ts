// The filter engine in process: the table of cases through both engines on one store, the value
// rules against SQLite's own reading, and the refusals of bad conditions.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpuMs } from './helpers/cpu-time.js';
import { insertContact, type Contact } from '../src/contacts/store.js';
import { ApiError } from '../src/errors.js';
import { evaluate } from '../src/filters/evaluate.js';
import { planCondition, planFilter, type SegmentDefinition } from '../src/filters/plan.js';
import { dependenciesOf } from '../src/filters/predicate.js';
import { countMatching, loadContactFacts, pageMatching, walkMatching, WALK_WINDOW } from '../src/filters/sqlite.js';
import type { Predicate } from '../src/filters/predicate.js';
import type { FilterCondition } from '../src/filters/types.js';
import { dateValue, numericString } from '../src/filters/values.js';
import { loadSchemas } from '../src/http/validate.js';
import { openStore, type Db } from '../src/store/db.js';
import { inlineReader } from '../src/store/reader.js';
import { AWKWARD_KEYS, CASES, CONTACTS, DYNAMIC_CONDITION, EVENTS, RECENT_AGO, REFUSED_DATA_FIELDS, STATIC_MEMBERS, type Refs } from './helpers/filter-cases.js';

loadSchemas();
const dir = mkdtempSync(join(tmpdir(), 'postmill-filters-'));
const db: Db = openStore(dir);
const PROJECT = randomUUID();
const OTHER_PROJECT = randomUUID();
const now = Date.parse('2026-03-01T12:00:00.000Z');
const refs: Refs = { staticId: randomUUID(), dynamicId: randomUUID(), now };
const contacts = new Map<string, Contact>();

const segments: SegmentDefinition[] = [
  { id: refs.staticId, name: 'S', type: 'STATIC', condition: null },
  { id: refs.dynamicId, name: 'D', type: 'DYNAMIC', condition: DYNAMIC_CONDITION },
];
const lookup = (id: string) => segments.find((s) => s.id === id) ?? null;

test.before(() => {
  for (const project of [PROJECT, OTHER_PROJECT]) db.prepare('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(project, project);
  for (const fixture of CONTACTS) {
    const contact: Contact = {
      id: randomUUID(),
      projectId: PROJECT,
      email: fixture.email,
      subscribed: !fixture.unsubscribes,
      data: fixture.data(now),
      createdAt: now - fixture.ago,
      updatedAt: now - fixture.ago,
    };
    insertContact(db, contact);
    contacts.set(fixture.key, contact);
    // A twin in another project matches everything the original does: a filter never reaches it.
    insertContact(db, { ...contact, id: randomUUID(), projectId: OTHER_PROJECT });
  }
  const event = db.prepare('INSERT INTO events (id, project_id, contact_id, name, created_at) VALUES (?, ?, ?, ?, ?)');
  for (const e of EVENTS) event.run(randomUUID(), PROJECT, contacts.get(e.contact)!.id, e.name, now - e.ago);
  for (const fixture of CONTACTS.filter((c) => c.unsubscribes)) event.run(randomUUID(), PROJECT, contacts.get(fixture.key)!.id, 'contact.unsubscribed', now - RECENT_AGO);
  for (const s of segments) {
    db.prepare("INSERT INTO segments (id, project_id, name, slug, type, condition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)").run(
      s.id,
      PROJECT,
      s.name,
      s.name.toLowerCase(),
      s.type,
      s.condition ? JSON.stringify(s.condition) : null,
    );
  }
  for (const key of STATIC_MEMBERS) {
    db.prepare('INSERT INTO segment_members (segment_id, contact_id, project_id, created_at) VALUES (?, ?, ?, 0)').run(refs.staticId, contacts.get(key)!.id, PROJECT);
  }
});
test.after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const reader = inlineReader(db);
const readOf = (projectId: string) => ({ projectId, budgetMs: 60_000 });
const count = (p: Predicate, projectId = PROJECT) => countMatching(reader, readOf(projectId), p, now);
const page = (p: Predicate, offset: number, limit: number, projectId = PROJECT) => pageMatching(reader, readOf(projectId), p, now, { offset, limit });
/** Every match, walked to the end a step at a time (at most `limit` matches a step). */
async function walked(p: Predicate, limit: number, projectId = PROJECT): Promise<Contact[]> {
  const walk = walkMatching(reader, readOf(projectId), p, now);
  const found: Contact[] = [];
  for (let at: string | null = null; ; ) {
    const step = await walk.next(at, limit);
    found.push(...step.contacts);
    if (step.last === null) return found;
    at = step.last;
  }
}

const keyOf = (id: string) => [...contacts.entries()].find(([, c]) => c.id === id)![0];
const sorted = (keys: string[]) => [...keys].sort();
const plan = (condition: FilterCondition) => planCondition(condition, { segments: lookup, path: 'condition' });

test('every case: the SQL engine (count, page, walk) and the memory engine give the expected contacts', async () => {
  for (const c of CASES) {
    const predicate = plan(c.condition(refs));
    const expected = sorted(c.expect);
    assert.is(await count(predicate), expected.length, `${c.name}: count`);
    assert.equal(sorted((await page(predicate, 0, 100)).map((x) => keyOf(x.id))), expected, `${c.name}: page`);
    assert.equal(sorted((await walked(predicate, 2)).map((x) => keyOf(x.id))), expected, `${c.name}: walk`);
    const { eventNames } = dependenciesOf(predicate);
    const inMemory = [...contacts.entries()].filter(([, contact]) => evaluate(predicate, loadContactFacts(db, PROJECT, contact, eventNames), now)).map(([key]) => key);
    assert.equal(sorted(inMemory), expected, `${c.name}: memory`);
  }
});

test('pages come newest first and respect offset and limit', async () => {
  const everyone = plan({ logic: 'AND', groups: [{ filters: [] }] });
  const second = await page(everyone, 1, 2);
  assert.is(second.length, 2);
  const all = await page(everyone, 0, 10);
  assert.equal(second.map((c) => c.id), all.slice(1, 3).map((c) => c.id));
  assert.ok(all.every((c, i) => i === 0 || all[i - 1]!.createdAt >= c.createdAt));
});

const DATES = [
  '2024-01-01',
  '2024-01-01T10:00',
  '2024-01-01 10:00:00',
  '2024-01-01T10:00:00.123Z',
  '2024-01-01T10:00:00.1239Z',
  '2024-01-01T10:00:00.9999Z',
  '2024-01-01T10:00:00+02:00',
  '2024-01-01T10:00:00-00:30',
  '2024-01-01T10:00:00 Z',
  '2024-01-01T10:00:00z',
  '2024-01-01   10:00',
  '2024-01-01TT10:00',
  '2024-01-01T',
  '2024-01-01 ',
  '2024-02-30',
  '2024-13-01',
  '2024-00-10',
  '2024-01-00',
  '2024-01-32',
  '2024-01-01T24:00',
  '2024-01-01T10:00:60',
  '2024-01-01T10',
  '2024-01-01T10:00:00+14:30',
  '2024-01-01T10:00:00+15:00',
  '2024-01-01T10:00:00.5',
  '2024-01-01T10:00:00.',
  '2024-01-01x',
  '2024-1-01',
  '0099-06-15',
  '9999-12-31T23:59:59.999Z',
  'now',
  '',
];

test('dates: the memory engine reads every text as SQLite does', () => {
  const read = db.prepare(
    "SELECT CASE WHEN ? GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN CAST(round(unixepoch(?, 'subsec') * 1000) AS INTEGER) END AS ms",
  );
  const random = Array.from({ length: 300 }, (_, i) => {
    const pick = (xs: string[]) => xs[(i * 7919 + xs.length * 31) % xs.length]!;
    const base = new Date(Date.UTC(1990 + (i % 60), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60, (i * 37) % 1000)).toISOString();
    return base.slice(0, 10 + (i % 4) * 3) + pick(['', 'Z', '+01:00', ' ', '-11:59', 'x', '.5']);
  });
  for (const text of [...DATES, ...random]) {
    const sqlite = (read.get(text, text) as { ms: number | null }).ms;
    assert.is(dateValue(text), sqlite, JSON.stringify(text));
  }
});

test('numeric strings: the memory engine agrees with SQLite on which texts are numbers', () => {
  const read = db.prepare("SELECT CASE WHEN json_valid(?) AND json_type(?) IN ('integer', 'real') THEN json_extract(?, '$') END AS n");
  for (const text of ['5', '5.0', ' 5 ', '\t5\n', '+5', '0x10', '.5', '5.', 'Infinity', 'NaN', '-0', '007', '1e3', '-5.5e-3', '5 5', '', '-', '"5"', 'true', '1e400', '\v5', '\f5']) {
    const sqlite = (read.get(text, text, text) as { n: number | null }).n;
    const memory = numericString(text);
    assert.is(memory === null ? null : memory === 0 ? 0 : memory, sqlite, JSON.stringify(text));
  }
});

function refusal(fn: () => unknown): { field: string; message: string; code: string }[] {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ApiError);
    assert.is((err as ApiError).status, 422);
    return (err as ApiError).extra.errors!;
  }
  throw new Error('expected a 422');
}

const nest = (depth: number): FilterCondition =>
  depth === 1 ? { logic: 'AND', groups: [{ filters: [] }] } : { logic: 'AND', groups: [{ filters: [], conditions: nest(depth - 1) }] };

test('bounds: depth 10 and 200 filters are accepted, one more is refused', () => {
  plan(nest(10));
  const deep = refusal(() => plan(nest(11)));
  assert.is(deep[0]!.code, 'too_big');
  assert.is(deep[0]!.field, 'condition' + '.groups.0.conditions'.repeat(10));
  refusal(() => plan(nest(5000)));
  const filters = (n: number) => Array.from({ length: n }, () => ({ field: 'email', operator: 'exists' as const }));
  plan({ logic: 'OR', groups: [{ filters: filters(100) }, { filters: filters(100) }] });
  const many = refusal(() => plan({ logic: 'OR', groups: [{ filters: filters(100) }, { filters: filters(101) }] }));
  assert.is(many[0]!.code, 'too_big');
});

test('every problem is reported with its field path', () => {
  const errors = refusal(() =>
    plan({
      logic: 'AND',
      groups: [
        {
          filters: [
            { field: 'plan', operator: 'equals', value: 'pro' },
            { field: 'data.age', operator: 'greaterThan', value: 'old' },
            { field: 'subscribed', operator: 'contains', value: 'x' },
            { field: 'createdAt', operator: 'within', value: -1 },
            { field: 'data.x', operator: 'equals', value: null },
            { field: 'segment', operator: 'memberOfSegment', value: randomUUID() },
            { field: 'data..x', operator: 'exists' },
          ],
        },
      ],
    }),
  );
  assert.equal(
    errors.map((e) => e.field),
    ['0.field', '1.value', '2.operator', '3.value', '4.value', '5.value', '6.field'].map((f) => `condition.groups.0.filters.${f}`),
  );
  const shape = refusal(() => plan({ logic: 'XOR', groups: [{ filters: [{ field: 'email', operator: 'near' }] }] } as unknown as FilterCondition));
  assert.ok(shape.some((e) => e.field === 'condition.logic'));
  assert.ok(shape.some((e) => e.field === 'condition.groups.0.filters.0.operator'));
});

test('memberOfSegment cycles are refused, directly and through other segments', () => {
  const self = refusal(() =>
    planCondition(
      { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: refs.dynamicId }] }] },
      { segments: lookup, path: 'condition', segmentId: refs.dynamicId },
    ),
  );
  assert.is(self[0]!.code, 'invalid_reference');
  const a = randomUUID();
  const b = randomUUID();
  const loop: SegmentDefinition[] = [
    { id: a, name: 'A', type: 'DYNAMIC', condition: { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: b }] }] } },
    { id: b, name: 'B', type: 'DYNAMIC', condition: { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'notMemberOfSegment', value: a }] }] } },
  ];
  const through = refusal(() =>
    planCondition({ logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: a }] }] }, {
      segments: (id) => loop.find((s) => s.id === id) ?? null,
      path: 'condition',
    }),
  );
  assert.match(through[0]!.message, /A -> B -> A/);
});

test('data keys of any characters: both engines read exactly the key named; empty keys and control characters are 422', async () => {
  const project = randomUUID();
  db.prepare('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(project, project);
  const made: Contact[] = [];
  const contact = (data: Contact['data']) => {
    const c: Contact = { id: randomUUID(), projectId: project, email: `${made.length}@keys.test`, subscribed: true, data, createdAt: now, updatedAt: now };
    insertContact(db, c);
    made.push(c);
    return c;
  };
  const cases: { field: string; value: string; expect: Contact }[] = [];
  for (const key of AWKWARD_KEYS) {
    cases.push({ field: `data.${key}`, value: `hit ${key}`, expect: contact({ [key]: `hit ${key}` }) });
    cases.push({ field: `data.${key}.${key}`, value: 'deep', expect: contact({ [key]: { [key]: 'deep' } }) });
  }
  // a backslash before a dot is part of the key before it
  cases.push({ field: 'data.a\\.b', value: 'dotted', expect: contact({ 'a\\': { b: 'dotted' } }) });
  for (const { field, value, expect } of cases) {
    for (const operator of ['equals', 'contains'] as const) {
      const predicate = plan({ logic: 'AND', groups: [{ filters: [{ field, operator, value }] }] });
      const what = `${JSON.stringify(field)} ${operator}`;
      assert.is(await count(predicate, project), 1, `${what}: count`);
      assert.equal((await page(predicate, 0, 10, project)).map((c) => c.id), [expect.id], `${what}: page`);
      assert.equal((await walked(predicate, 10, project)).map((c) => c.id), [expect.id], `${what}: walk`);
      assert.equal(made.filter((c) => evaluate(predicate, loadContactFacts(db, project, c, []), now)).map((c) => c.id), [expect.id], `${what}: memory`);
    }
  }
  for (const field of REFUSED_DATA_FIELDS) {
    const errors = refusal(() => plan({ logic: 'AND', groups: [{ filters: [{ field, operator: 'exists' }] }] }));
    assert.is(errors[0]!.field, 'condition.groups.0.filters.0.field', JSON.stringify(field));
  }
});

test('a condition that expands to 2000 filters runs in SQL (ORs and ANDs as balanced trees: SQLite refuses expressions deeper than 1000)', async () => {
  const expect = sorted(CONTACTS.filter((c) => String(c.data(now).plan ?? '').toLowerCase() === 'pro').map((c) => c.key));
  // 99 filters that together mean plan = pro, ORed or ANDed; named 20 times, ORed or ANDed
  const others = Array.from({ length: 98 }, (_, i) => `other${i}`);
  const pro = { field: 'data.plan', operator: 'equals' as const, value: 'pro' };
  const shapes = {
    OR: { logic: 'OR' as const, groups: [pro, ...others.map((value) => ({ field: 'data.plan', operator: 'equals' as const, value }))].map((f) => ({ filters: [f] })) },
    AND: { logic: 'AND' as const, groups: [{ filters: [pro, ...others.map((value) => ({ field: 'data.plan', operator: 'notEquals' as const, value }))] }] },
  };
  for (const [logic, condition] of Object.entries(shapes) as ['OR' | 'AND', FilterCondition][]) {
    const wide: SegmentDefinition = { id: randomUUID(), name: `wide ${logic}`, type: 'DYNAMIC', condition };
    const named = { logic, groups: Array.from({ length: 20 }, () => ({ filters: [{ field: 'segment', operator: 'memberOfSegment' as const, value: wide.id }] })) };
    const predicate = planCondition(named, { segments: (id) => (id === wide.id ? wide : lookup(id)), path: 'condition' });
    assert.is(await count(predicate), expect.length, `${logic}: count`);
    assert.equal(sorted((await page(predicate, 0, 100)).map((x) => keyOf(x.id))), expect, `${logic}: page`);
    assert.equal(sorted((await walked(predicate, 100)).map((x) => keyOf(x.id))), expect, `${logic}: walk`);
  }
});

/** A project of `n` contacts with ordered ids (`c00000`...), each `{i, note}`: answers its id. */
function seedProject(n: number): string {
  const project = randomUUID();
  db.prepare('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(project, project);
  db.prepare(
    `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
     INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
     SELECT ? || printf('%06d', x), ?, x || '@seed.test', x || '@seed.test', 1, json_object('i', x, 'note', hex(randomblob(16))), ?, ? FROM n`,
  ).run(n, `${project}-`, project, now, now);
  return project;
}

test('a walk step visits at most WALK_WINDOW contacts, and continues where the last one ended', async () => {
  const project = seedProject(2 * WALK_WINDOW + WALK_WINDOW / 2);
  const idAt = (i: number) => `${project}-${String(i).padStart(6, '0')}`;
  const matches = [10, 20, WALK_WINDOW + 500, 2 * WALK_WINDOW + 400];
  const predicate = plan({ logic: 'OR', groups: matches.map((i) => ({ filters: [{ field: 'data.i', operator: 'equals', value: i }] })) });
  const walk = walkMatching(reader, readOf(project), predicate, now);
  const steps: { ids: string[]; last: string | null }[] = [];
  for (let at: string | null = null; ; ) {
    const step = await walk.next(at, 1);
    steps.push({ ids: step.contacts.map((c) => c.id), last: step.last });
    if (step.last === null) break;
    at = step.last;
  }
  const last = 2 * WALK_WINDOW + WALK_WINDOW / 2 - 1;
  assert.equal(steps, [
    { ids: [idAt(10)], last: idAt(10) }, // the limit reached: the next step starts after the match
    { ids: [idAt(20)], last: idAt(20) },
    { ids: [], last: idAt(20 + WALK_WINDOW) }, // else after a window of WALK_WINDOW contacts
    { ids: [idAt(WALK_WINDOW + 500)], last: idAt(WALK_WINDOW + 500) },
    { ids: [idAt(2 * WALK_WINDOW + 400)], last: idAt(2 * WALK_WINDOW + 400) },
    { ids: [], last: idAt(last) },
    { ids: [], last: null },
  ]);
});

test('a read past its budget is stopped with 422 QUERY_TIMEOUT (budget() is asked for every row, not once); a read without budget() is refused', async () => {
  const project = seedProject(5000);
  const heavy = plan({ logic: 'OR', groups: Array.from({ length: 200 }, (_, i) => ({ filters: [{ field: 'data.note', operator: 'contains', value: `zz${i}` }] })) });
  let stopped: unknown = null;
  const stoppedCpu = await cpuMs(() => countMatching(reader, { projectId: project, budgetMs: 20 }, heavy, now).catch((err: unknown) => (stopped = err)));
  assert.instance(stopped, ApiError, 'the count should have been stopped');
  const err = stopped as unknown as ApiError;
  assert.equal([err.status, err.code, err.extra.details], [422, 'QUERY_TIMEOUT', { budgetMs: 20 }]);
  let completed: number | null = null;
  const completedCpu = await cpuMs(async () => (completed = await countMatching(reader, { projectId: project, budgetMs: 60_000 }, heavy, now)));
  assert.is(completed, 0, 'with time enough it completes');
  // in CPU time, which a loaded machine does not stretch: budget() asked once would let the count run to its end
  assert.ok(stoppedCpu < completedCpu / 2, `stopped soon after its budget: ${stoppedCpu.toFixed(0)} ms of CPU, the whole count ${completedCpu.toFixed(0)} ms`);
  try {
    await reader.get(readOf(project), 'SELECT COUNT(*) FROM contacts', []);
    assert.unreachable('a read without budget() should be refused');
  } catch (err) {
    assert.match((err as Error).message, /budget\(\)/);
  }
});

test('a single filter (a workflow CONDITION step) plans under the same rules', () => {
  const p = planFilter({ field: 'data.plan', operator: 'equals', value: 'PRO' }, { segments: lookup, path: 'config' });
  assert.ok(evaluate(p, loadContactFacts(db, PROJECT, contacts.get('ann')!, []), now));
  assert.not.ok(evaluate(p, loadContactFacts(db, PROJECT, contacts.get('bob')!, []), now));
  const errors = refusal(() => planFilter({ field: 'purchase', operator: 'triggeredWithin' }, { segments: lookup, path: 'config' }));
  assert.is(errors[0]!.field, 'config.value');
});

test.run();
