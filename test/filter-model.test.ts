// The console's filter model (console/src/ui/filterModel.ts), pure: every operator of the filter
// engine survives the round trip condition -> what the builder shows (kind, field, operator, value
// editor and its text, unit) -> condition; what the builder offers and starts from, once a value is
// typed, is a condition the engine's planner accepts; the API's problems point at the builder's
// own names for the places.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  choicesFor,
  chosenTypeOf,
  EVENT_OPERATORS,
  kindOf,
  MEMBERSHIP_OPERATORS,
  newFilter,
  operatorsFor,
  operatorsOf,
  placeOf,
  problemsWithin,
  rebuilt,
  STANDARD_FIELDS,
  textOf,
  typeOf,
  VALUE_OPERATORS,
  valueKindOf,
  valueOfText,
  type EditorKind,
  type FieldType,
  type Filter,
  type FilterCondition,
  type FilterKind,
  type KnownField,
} from '../console/src/ui/filterModel.js';
import { ApiError } from '../src/errors.js';
import * as engine from '../src/filters/types.js';
import { planCondition } from '../src/filters/plan.js';
import { loadSchemas } from '../src/http/validate.js';

loadSchemas();

const SEGMENT = '0b6f8a52-5c1e-4f7e-9a51-3f7d2c1e8b90';
const lookup = (id: string) => (id === SEGMENT ? { id, name: 'Guests', type: 'STATIC' as const, condition: null } : null);

/** The engine's verdict on a condition: null when it plans, else its field problems. */
function refusal(condition: FilterCondition): { field: string; message: string }[] | null {
  try {
    planCondition(condition, { segments: lookup, path: 'condition' });
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err.extra.errors ?? [];
  }
}
const one = (f: Filter): FilterCondition => ({ logic: 'AND', groups: [{ filters: [f] }] });

/** The project's data fields as GET /contacts/fields reports them. */
const FIELDS: KnownField[] = [
  { field: 'data.plan', type: 'string', coverage: 100 },
  { field: 'data.seats', type: 'number', coverage: 90 },
  { field: 'data.vip', type: 'boolean', coverage: 50 },
  { field: 'data.renewsAt', type: 'date', coverage: 40 },
  { field: 'data.address', type: 'object', coverage: 30 },
  { field: 'data.tags', type: 'array', coverage: 20 },
  { field: 'data.misc', type: 'mixed', coverage: 10 },
];

/** Conditions as the API stores them, for every operator: each standard field, each inferred type, a path not listed, events, membership. */
const STORED: Filter[] = [
  { field: 'email', operator: 'equals', value: 'ann@example.org' },
  { field: 'subscribed', operator: 'equals', value: true },
  { field: 'createdAt', operator: 'equals', value: '2026-03-01T10:15:00.000Z' },
  { field: 'data.plan', operator: 'equals', value: 'pro' },
  { field: 'data.seats', operator: 'equals', value: 5 },
  { field: 'data.vip', operator: 'equals', value: false },
  { field: 'data.renewsAt', operator: 'equals', value: '2027-01-31T23:00:00.000Z' },
  { field: 'data.address', operator: 'equals', value: { city: 'Oslo', zip: '0150' } },
  { field: 'data.tags', operator: 'equals', value: ['a', 'b'] },
  { field: 'data.misc', operator: 'equals', value: 12.5 },
  { field: 'data.misc', operator: 'equals', value: 'twelve' },
  { field: 'data.misc', operator: 'equals', value: true },
  { field: 'data.misc', operator: 'equals', value: '2026-05-05T05:05:00.000Z' },
  { field: 'data.deep.path', operator: 'equals', value: { nested: [1, 2] } },
  { field: 'email', operator: 'notEquals', value: 'bob@example.org' },
  { field: 'subscribed', operator: 'notEquals', value: false },
  { field: 'data.seats', operator: 'notEquals', value: 0 },
  { field: 'data.tags', operator: 'notEquals', value: [] },
  { field: 'email', operator: 'contains', value: '@example' },
  { field: 'data.plan', operator: 'contains', value: 'pr' },
  { field: 'data.tags', operator: 'contains', value: 'vip' },
  { field: 'email', operator: 'notContains', value: 'test' },
  { field: 'data.tags', operator: 'notContains', value: 'churned' },
  { field: 'data.seats', operator: 'greaterThan', value: 10 },
  { field: 'createdAt', operator: 'greaterThan', value: '2020-01-01T00:00:00.000Z' },
  { field: 'data.misc', operator: 'greaterThan', value: 3 },
  { field: 'data.seats', operator: 'lessThan', value: -2.5 },
  { field: 'updatedAt', operator: 'lessThan', value: '2030-12-31T12:00:00.000Z' },
  { field: 'data.misc', operator: 'lessThan', value: '2026-01-01T00:00:00.000Z' },
  { field: 'data.seats', operator: 'greaterThanOrEqual', value: 20 },
  { field: 'data.renewsAt', operator: 'greaterThanOrEqual', value: '2026-06-01T08:30:00.000Z' },
  { field: 'data.seats', operator: 'lessThanOrEqual', value: 2 },
  { field: 'data.renewsAt', operator: 'lessThanOrEqual', value: '2026-06-30T00:00:00.000Z' },
  { field: 'email', operator: 'exists' },
  { field: 'data.plan', operator: 'exists' },
  { field: 'data.unlisted', operator: 'notExists' },
  { field: 'createdAt', operator: 'within', value: 30, unit: 'days' },
  { field: 'data.renewsAt', operator: 'within', value: 12, unit: 'hours' },
  { field: 'updatedAt', operator: 'olderThan', value: 90, unit: 'minutes' },
  { field: 'data.renewsAt', operator: 'olderThan', value: 1.5, unit: 'days' },
  { field: 'purchase', operator: 'triggered' },
  { field: 'purchase', operator: 'triggeredWithin', value: 7, unit: 'days' },
  { field: 'login', operator: 'triggeredOlderThan', value: 2, unit: 'hours' },
  { field: 'signup', operator: 'notTriggered' },
  { field: 'email.opened', operator: 'notTriggeredWithin', value: 15, unit: 'minutes' },
  { field: 'segment', operator: 'memberOfSegment', value: SEGMENT },
  { field: 'segment', operator: 'notMemberOfSegment', value: SEGMENT },
];

const KIND_OF_OPERATOR = (op: string): FilterKind =>
  (engine.EVENT_OPERATORS as readonly string[]).includes(op) ? 'event' : (engine.MEMBERSHIP_OPERATORS as readonly string[]).includes(op) ? 'segment' : 'field';

const fieldType = (f: Filter): FieldType => (kindOf(f) === 'field' ? typeOf(FIELDS, f.field) : 'unknown');

/** The editor the builder draws for a filter's value (null: none), as the row chooses it. */
function editorOf(f: Filter, type: FieldType): EditorKind | null {
  const kind = valueKindOf(f, type);
  return kind === 'none' ? null : kind === 'choice' ? chosenTypeOf(f.value, choicesFor(f.operator)) : kind;
}

/** A stored filter shown by the builder and read back from what it shows, nothing edited. */
function throughBuilder(f: Filter): Filter {
  const type = fieldType(f);
  assert.is(kindOf(f), KIND_OF_OPERATOR(f.operator), `${f.operator}: the row's kind`);
  // offered for the field's own type, not only kept as a condition made through the API would be
  const offered = kindOf(f) === 'field' ? operatorsFor(f.field, type) : kindOf(f) === 'event' ? EVENT_OPERATORS : MEMBERSHIP_OPERATORS;
  assert.ok((offered as readonly string[]).includes(f.operator), `${f.field} ${f.operator}: offered for ${type}`);
  assert.equal(operatorsOf(f, type), [...offered]);
  const back: Filter = { field: f.field, operator: f.operator };
  const editor = editorOf(f, type);
  if (editor !== null) {
    const text = textOf(editor, f.value);
    const value = valueOfText(editor, text);
    if (value !== undefined) back.value = value;
  }
  if (f.unit !== undefined) back.unit = f.unit;
  return back;
}

test("the model's operators are the engine's, every one", () => {
  assert.equal([...VALUE_OPERATORS], [...engine.VALUE_OPERATORS]);
  assert.equal([...EVENT_OPERATORS], [...engine.EVENT_OPERATORS]);
  assert.equal([...MEMBERSHIP_OPERATORS], [...engine.MEMBERSHIP_OPERATORS]);
  const covered = new Set(STORED.map((f) => f.operator));
  assert.equal(engine.OPERATORS.filter((op) => !covered.has(op)), [], 'every operator has a stored case here');
  // the union of what the builder offers over every type and kind is every operator
  const offered = new Set<string>([...EVENT_OPERATORS, ...MEMBERSHIP_OPERATORS]);
  for (const t of ['string', 'number', 'boolean', 'date', 'object', 'array', 'mixed', 'unknown'] as FieldType[]) for (const op of operatorsFor('data.x', t)) offered.add(op);
  assert.equal([...engine.OPERATORS].filter((op) => !offered.has(op)), []);
});

test('every stored case is one the engine accepts (the cases are real)', () => {
  for (const f of STORED) assert.is(refusal(one(f)), null, `${JSON.stringify(f)}: ${JSON.stringify(refusal(one(f)))}`);
});

test('condition -> builder -> condition: every operator, every value type, exactly', () => {
  for (const f of STORED) assert.equal(throughBuilder(f), f, JSON.stringify(f));
});

test('choosing the same field and operator again keeps the condition as it was', () => {
  for (const f of STORED) {
    const type = fieldType(f);
    assert.equal(rebuilt(f, f.field, f.operator, type, type), f, JSON.stringify(f));
  }
});

test('a whole condition: groups ORed, nested conditions, every case; the round trip keeps it and the engine accepts it', () => {
  const half = Math.floor(STORED.length / 2);
  const condition: FilterCondition = {
    logic: 'OR',
    groups: [
      { filters: STORED.slice(0, half) },
      { filters: STORED.slice(half, half + 5), conditions: { logic: 'AND', groups: [{ filters: STORED.slice(half + 5) }, { filters: [] }] } },
    ],
  };
  const through = (c: FilterCondition): FilterCondition => ({
    logic: c.logic,
    groups: c.groups.map((g) => ({ filters: g.filters.map(throughBuilder), ...(g.conditions ? { conditions: through(g.conditions) } : {}) })),
  });
  assert.equal(through(condition), condition);
  assert.is(refusal(condition), null);
});

test('a date without a zone or time is shown at its instant (read as UTC, as the engine reads it) and sent back as that instant', () => {
  for (const [stored, instant] of [
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T10:15', '2026-03-01T10:15:00.000Z'],
    ['2026-03-01 10:15:00', '2026-03-01T10:15:00.000Z'],
    ['2026-03-01T12:15:00+02:00', '2026-03-01T10:15:00.000Z'],
  ] as const) {
    assert.is(valueOfText('date', textOf('date', stored)), instant, stored);
  }
  assert.is(textOf('date', 'next tuesday'), '', 'a text that is not a date shows an empty date');
});

test('texts that are not values yet are no value (the API then names what is missing), never a wrong one', () => {
  for (const kind of ['number', 'span'] as const) {
    for (const text of ['', ' ', '1e', 'abc', 'Infinity']) assert.is(valueOfText(kind, text), undefined, `${kind} ${JSON.stringify(text)}`);
    assert.is(valueOfText(kind, '0.25'), 0.25);
  }
  assert.is(valueOfText('json', '{"a":'), undefined);
  assert.equal(valueOfText('json', '{"a":[1]}'), { a: [1] });
  assert.is(valueOfText('date', ''), undefined);
  assert.is(valueOfText('date', 'not a date'), undefined);
  assert.is(valueOfText('text', ''), '');
  assert.is(valueOfText('boolean', 'false'), false);
});

/** A text a person would type into an editor of this kind. */
const TYPED: Record<EditorKind, string> = { text: 'pro', number: '3', span: '7', boolean: 'true', date: '2026-02-03T04:05', json: '{"city":"Oslo"}', segment: SEGMENT };

test('every operator the builder offers, started from any row and with a value typed, is a condition the engine accepts and that round-trips', () => {
  const rows: { field: string; type: FieldType }[] = [
    ...STANDARD_FIELDS.map((s) => ({ field: s.field, type: s.type })),
    ...FIELDS.map((f) => ({ field: f.field, type: f.type })),
    { field: 'data.not.listed', type: 'unknown' },
  ];
  let checked = 0;
  for (const kind of ['field', 'event', 'segment'] as FilterKind[]) {
    for (const row of kind === 'field' ? rows : [{ field: 'email', type: 'string' as FieldType }]) {
      const start = newFilter(kind, { field: row, event: 'purchase', segment: SEGMENT });
      const type = fieldType(start);
      for (const op of operatorsOf(start, type)) {
        const f = rebuilt(start, start.field, op, type, type);
        assert.is(f.operator, op);
        const editor = editorOf(f, type);
        const typed: Filter = { ...f };
        if (editor !== null) {
          const value = valueOfText(editor, TYPED[editor]);
          if (value !== undefined) typed.value = value;
        }
        assert.is(refusal(one(typed)), null, `${JSON.stringify(typed)}: ${JSON.stringify(refusal(one(typed)))}`);
        assert.equal(throughBuilder(typed), typed, JSON.stringify(typed));
        checked++;
      }
    }
  }
  assert.ok(checked > 80, `${checked} combinations`);
});

test("changing the operator keeps a value of the same kind and starts a new one otherwise; a span gets its unit", () => {
  const seats: Filter = { field: 'data.seats', operator: 'greaterThan', value: 10 };
  assert.equal(rebuilt(seats, 'data.seats', 'lessThanOrEqual', 'number', 'number'), { field: 'data.seats', operator: 'lessThanOrEqual', value: 10 });
  assert.equal(rebuilt(seats, 'data.seats', 'exists', 'number', 'number'), { field: 'data.seats', operator: 'exists' });
  const created: Filter = { field: 'createdAt', operator: 'lessThan', value: '2026-01-01T00:00:00.000Z' };
  assert.equal(rebuilt(created, 'createdAt', 'within', 'date', 'date'), { field: 'createdAt', operator: 'within', value: 30, unit: 'days' });
  const event: Filter = { field: 'purchase', operator: 'triggeredWithin', value: 3, unit: 'hours' };
  assert.equal(rebuilt(event, 'purchase', 'notTriggeredWithin', 'unknown', 'unknown'), { field: 'purchase', operator: 'notTriggeredWithin', value: 3, unit: 'hours' });
  // another field of another type: the text value does not carry into a number
  const plan: Filter = { field: 'data.plan', operator: 'equals', value: 'pro' };
  assert.equal(rebuilt(plan, 'data.seats', 'equals', 'string', 'number'), { field: 'data.seats', operator: 'equals' });
  // an operator the type does not suggest (made through the API) stays offered
  const odd: Filter = { field: 'data.vip', operator: 'contains', value: 'y' };
  assert.ok(operatorsOf(odd, 'boolean').includes('contains'));
  assert.not.ok(operatorsFor('data.vip', 'boolean').includes('contains'));
});

test("the engine's problems point at the builder's names for the places", () => {
  const bad: FilterCondition = {
    logic: 'AND',
    groups: [
      { filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
      {
        filters: [],
        conditions: { logic: 'OR', groups: [{ filters: [] }, { filters: [{ field: 'purchase', operator: 'triggeredWithin', unit: 'days' }, { field: 'subscribed', operator: 'greaterThan', value: 1 }] }] },
      },
    ],
  };
  const problems = problemsWithin(refusal(bad) ?? [], 'condition');
  assert.equal(
    problems.map((p) => `${placeOf(p.field)} (${p.field})`),
    ['Condition 1 of group 2.2 (groups.1.conditions.groups.1.filters.0.value)', 'Condition 2 of group 2.2 (groups.1.conditions.groups.1.filters.1.operator)'],
  );
  assert.is(placeOf(''), 'The condition');
  assert.is(placeOf('groups.0'), 'Group 1');
  assert.is(placeOf('groups.2.conditions'), 'The nested condition of group 3');
  assert.equal(problemsWithin([{ field: 'audienceCondition.groups.0', message: 'x' }, { field: 'condition', message: 'y' }, { field: 'conditionX', message: 'z' }], 'condition'), [{ field: '', message: 'y' }]);
});

test.run();
