// The filter builder: a FilterCondition edited as groups of conditions, for segments and for a
// campaign's FILTERED audience.
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { api, type FieldProblem } from '../api';
import { useSession } from '../session';
import { carry, keyOf } from './filterKeys';
import {
  countFilters,
  groupName,
  kindOf,
  MAX_DEPTH,
  MAX_FILTERS,
  newFilter,
  operatorsOf,
  operatorText,
  placeOf,
  problemsUnder,
  rebuilt,
  STANDARD_FIELDS,
  typeOf,
  type FieldType,
  type Filter,
  type FilterCondition,
  type FilterGroup,
  type FilterKind,
  type KnownField,
  type Logic,
  type Operator,
} from './filterModel';
import { FilterValue, type SegmentChoice } from './FilterValue';

export { emptyCondition, problemsWithin, type FilterCondition } from './filterModel';

export interface FilterBuilderProps {
  /** The condition shown (controlled). Start from `emptyCondition()`. */
  value: FilterCondition;
  /** Every edit, as a whole new condition in the API's JSON, values typed by their field's type. */
  onChange(value: FilterCondition): void;
  /** The accessible name of the builder (default "Filter"). */
  label?: string;
  /** The API's 422 problems with paths relative to the condition (`problemsWithin(failure.fields, 'condition')`): each is shown at the condition it is about. */
  problems?: FieldProblem[];
  /** A segment not offered for membership conditions: the one being edited. */
  excludeSegmentId?: string;
}

interface Catalog {
  fields: KnownField[];
  events: string[];
  segments: SegmentChoice[];
  problems: FieldProblem[];
  /** Whether another filter fits under the engine's bound. */
  roomForMore: boolean;
  /** Moves the focus to the element marked `data-focus-key={key}` once it is drawn. */
  focus(key: string): void;
}

const CatalogContext = createContext<Catalog | null>(null);
const useCatalog = () => useContext(CatalogContext)!;

const TYPE_WORDS: Record<FieldType, string> = { string: 'text', number: 'number', boolean: 'true or false', date: 'date', object: 'object', array: 'list', mixed: 'mixed types', unknown: 'type not known' };

/** What the rows start from: the project's first data field (else email), its first event name and segment. */
function firsts(c: Catalog) {
  const data = c.fields.find((f) => f.field.startsWith('data.'));
  return { field: data ?? { field: 'email', type: 'string' as FieldType }, event: c.events[0], segment: c.segments[0]?.id };
}

/** A text that names what is wrong, referenced by the inputs it is about. */
function Problems({ id, problems }: { id: string; problems: FieldProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul id={id} className="problems error">
      {problems.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

/** Where the condition's field is: one of the project's (standard or data, with its type), or a data path typed by hand. */
function FieldPicker({ filter, onChange, invalid }: { filter: Filter; onChange(f: Filter): void; invalid: string | undefined }) {
  const c = useCatalog();
  const data = c.fields.filter((f) => f.field.startsWith('data.'));
  const listed = STANDARD_FIELDS.some((s) => s.field === filter.field) || data.some((f) => f.field === filter.field);
  // chosen, or being typed: a path typed by hand stays in its box while it happens to name a listed field
  const [manual, setManual] = useState(false);
  const byHand = manual || !listed;
  const change = (field: string) => onChange(carry(filter, rebuilt(filter, field, filter.operator, typeOf(c.fields, filter.field), typeOf(c.fields, field))));
  return (
    <>
      <label>
        Field
        <select
          data-focus-key={`${keyOf(filter)}:field`}
          value={byHand ? '' : filter.field}
          aria-invalid={invalid !== undefined}
          aria-describedby={invalid}
          onChange={(e) => {
            setManual(e.target.value === '');
            change(e.target.value === '' ? 'data.' : e.target.value);
          }}
        >
          <optgroup label="Contact">
            {STANDARD_FIELDS.map((s) => (
              <option key={s.field} value={s.field}>
                {s.label} ({TYPE_WORDS[s.type]})
              </option>
            ))}
          </optgroup>
          {data.length > 0 && (
            <optgroup label="Data">
              {data.map((f) => (
                <option key={f.field} value={f.field}>
                  {f.field.slice(5)} ({TYPE_WORDS[f.type]}, {f.coverage}% of contacts)
                </option>
              ))}
            </optgroup>
          )}
          <option value="">Another data path…</option>
        </select>
      </label>
      {byHand && (
        <label>
          Data path
          <span className="prefixed">
            <span aria-hidden="true">data.</span>
            <input
              value={filter.field.startsWith('data.') ? filter.field.slice(5) : filter.field}
              onChange={(e) => {
                setManual(true);
                change(`data.${e.target.value}`);
              }}
              placeholder="address.city"
              aria-describedby={invalid}
            />
          </span>
        </label>
      )}
    </>
  );
}

/** The event a condition asks about: one the project has recorded, or a name typed by hand. */
function EventPicker({ filter, onChange, invalid }: { filter: Filter; onChange(f: Filter): void; invalid: string | undefined }) {
  const c = useCatalog();
  const [manual, setManual] = useState(false);
  const byHand = manual || !c.events.includes(filter.field);
  const change = (field: string) => onChange(carry(filter, { ...filter, field }));
  return (
    <>
      <label>
        Event
        <select
          data-focus-key={`${keyOf(filter)}:field`}
          value={byHand ? '' : filter.field}
          aria-invalid={invalid !== undefined}
          aria-describedby={invalid}
          onChange={(e) => {
            setManual(e.target.value === '');
            change(e.target.value);
          }}
        >
          {c.events.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          <option value="">Another event name…</option>
        </select>
      </label>
      {byHand && (
        <label>
          Event name
          <input
            value={filter.field}
            onChange={(e) => {
              setManual(true);
              change(e.target.value);
            }}
            placeholder="purchase"
            aria-describedby={invalid}
          />
        </label>
      )}
    </>
  );
}

const KINDS: { kind: FilterKind; label: string }[] = [
  { kind: 'field', label: 'Contact field' },
  { kind: 'event', label: 'Event' },
  { kind: 'segment', label: 'Segment membership' },
];

function FilterRow({ filter, onChange, onRemove, path, name }: { filter: Filter; onChange(f: Filter): void; onRemove(): void; path: string; name: string }) {
  const c = useCatalog();
  const problemId = useId();
  const problems = problemsUnder(c.problems, path);
  const about = (part: string) => (problems.some((p) => p.field === `${path}.${part}` || (part === 'value' && p.field === path)) ? problemId : undefined);
  const kind = kindOf(filter);
  const type = kind === 'field' ? typeOf(c.fields, filter.field) : 'unknown';
  const operators = operatorsOf(filter, type);
  const legend = `Condition ${name}`;
  return (
    <fieldset className="filter">
      <legend>{legend}</legend>
      <div className="row">
        <label>
          Kind
          <select
            data-focus-key={`${keyOf(filter)}:kind`}
            value={kind}
            onChange={(e) => {
              onChange(carry(filter, newFilter(e.target.value as FilterKind, firsts(c))));
            }}
          >
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        {kind === 'field' && <FieldPicker filter={filter} onChange={onChange} invalid={about('field')} />}
        {kind === 'event' && <EventPicker filter={filter} onChange={onChange} invalid={about('field')} />}
        <label>
          {kind === 'segment' ? 'Membership' : 'Operator'}
          <select value={filter.operator} aria-invalid={about('operator') !== undefined} aria-describedby={about('operator')} onChange={(e) => onChange(carry(filter, rebuilt(filter, filter.field, e.target.value as Operator, type, type)))}>
            {operators.map((op) => (
              <option key={op} value={op}>
                {operatorText(op, type)}
              </option>
            ))}
          </select>
        </label>
        <FilterValue filter={filter} type={type} onChange={onChange} segments={c.segments} problemId={about('value') ?? about('unit')} />
        <button type="button" className="quiet" aria-label={`Remove ${legend.toLowerCase()}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      <Problems id={problemId} problems={problems} />
    </fieldset>
  );
}

function GroupEditor({ group, onChange, onRemove, path, name, depth }: { group: FilterGroup; onChange(g: FilterGroup): void; onRemove: (() => void) | null; path: string; name: string; depth: number }) {
  const c = useCatalog();
  const key = keyOf(group);
  const setFilters = (filters: Filter[]) => onChange(carry(group, { ...group, filters }));
  const add = () => {
    const filter = newFilter('field', firsts(c));
    setFilters([...group.filters, filter]);
    c.focus(`${keyOf(filter)}:kind`);
  };
  const nest = () => {
    const nested: FilterCondition = { logic: 'AND', groups: [{ filters: [newFilter('field', firsts(c))] }] };
    onChange(carry(group, { ...group, conditions: nested }));
    c.focus(`${keyOf(nested.groups[0]!.filters[0]!)}:kind`);
  };
  return (
    <fieldset className="filter-group">
      <legend>Group {name}</legend>
      {group.filters.length === 0 && !group.conditions ? (
        <p className="hint">No conditions: every contact matches this group.</p>
      ) : (
        group.filters.length + (group.conditions ? 1 : 0) > 1 && <p className="hint">A contact must meet every condition of this group.</p>
      )}
      {group.filters.map((f, i) => (
        <FilterRow
          key={keyOf(f)}
          filter={f}
          path={`${path}.filters.${i}`}
          name={`${i + 1} of group ${name}`}
          onChange={(next) => setFilters(group.filters.map((x, j) => (j === i ? next : x)))}
          onRemove={() => {
            setFilters(group.filters.filter((_, j) => j !== i));
            c.focus(`${key}:add`);
          }}
        />
      ))}
      {group.conditions && (
        <fieldset className="nested">
          <legend>Nested condition of group {name}</legend>
          <ConditionEditor condition={group.conditions} onChange={(conditions) => onChange(carry(group, { ...group, conditions }))} path={`${path}.conditions`} name={name} depth={depth + 1} />
          <button
            type="button"
            className="quiet"
            aria-label={`Remove the nested condition of group ${name}`}
            onClick={() => {
              const { conditions: _gone, ...rest } = group;
              onChange(carry(group, rest));
              c.focus(`${key}:nest`);
            }}
          >
            Remove nested condition
          </button>
        </fieldset>
      )}
      <div className="actions">
        <button type="button" className="quiet" data-focus-key={`${key}:add`} disabled={!c.roomForMore} aria-label={`Add condition to group ${name}`} onClick={add}>
          Add condition
        </button>
        {!group.conditions && depth < MAX_DEPTH && (
          <button type="button" className="quiet" data-focus-key={`${key}:nest`} disabled={!c.roomForMore} aria-label={`Add nested condition to group ${name}`} onClick={nest}>
            Add nested condition
          </button>
        )}
        {onRemove && (
          <button type="button" className="quiet" aria-label={`Remove group ${name}`} onClick={onRemove}>
            Remove group
          </button>
        )}
      </div>
    </fieldset>
  );
}

const LOGIC_WORDS: Record<Logic, string> = { AND: 'every group (AND)', OR: 'any group (OR)' };

function ConditionEditor({ condition, onChange, path, name, depth }: { condition: FilterCondition; onChange(c: FilterCondition): void; path: string; name: string; depth: number }) {
  const c = useCatalog();
  const key = keyOf(condition);
  const setGroups = (groups: FilterGroup[]) => onChange(carry(condition, { ...condition, groups }));
  const at = (i: number) => (path === '' ? `groups.${i}` : `${path}.groups.${i}`);
  return (
    <div className="filter-condition">
      <label>
        {name === '' ? 'Contacts match' : `The nested condition of group ${name} matches`}
        <select value={condition.logic} onChange={(e) => onChange(carry(condition, { ...condition, logic: e.target.value as Logic }))}>
          {(['AND', 'OR'] as const).map((l) => (
            <option key={l} value={l}>
              {LOGIC_WORDS[l]}
            </option>
          ))}
        </select>
      </label>
      {condition.groups.map((g, i) => (
        <div key={keyOf(g)}>
          {i > 0 && (
            <p className="logic" aria-hidden="true">
              {condition.logic}
            </p>
          )}
          <GroupEditor
            group={g}
            path={at(i)}
            name={groupName(name, i)}
            depth={depth}
            onChange={(next) => setGroups(condition.groups.map((x, j) => (j === i ? next : x)))}
            // a condition has at least one group (the API's rule)
            onRemove={
              condition.groups.length > 1
                ? () => {
                    setGroups(condition.groups.filter((_, j) => j !== i));
                    c.focus(`${key}:add-group`);
                  }
                : null
            }
          />
        </div>
      ))}
      <button
        type="button"
        className="quiet"
        data-focus-key={`${key}:add-group`}
        disabled={!c.roomForMore}
        aria-label={name === '' ? 'Add group' : `Add group to the nested condition of group ${name}`}
        onClick={() => {
          const filter = newFilter('field', firsts(c));
          setGroups([...condition.groups, { filters: [filter] }]);
          c.focus(`${keyOf(filter)}:kind`);
        }}
      >
        Add group
      </button>
    </div>
  );
}

/** Problems that no condition row shows (about a group, the nesting, the whole): listed at the top with where they are. */
function OtherProblems({ problems }: { problems: FieldProblem[] }) {
  const rowPath = /(^|\.)filters\.\d+/;
  const others = problems.filter((p) => !rowPath.test(p.field));
  if (others.length === 0) return null;
  return (
    <ul className="problems error">
      {others.map((p, i) => (
        <li key={i}>
          {placeOf(p.field)}: {p.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * A FilterCondition editor (docs/api.md "Segments and filters"): groups combined by AND or OR, each
 * group's conditions ANDed with an optional nested condition (10 levels at most), every operator of
 * the filter engine, the project's contact fields with their inferred types (GET /contacts/fields),
 * event names (GET /events/names) and segments (GET /segments), values typed by the field's type.
 * Every control is a labelled native one; groups and conditions are fieldsets named "Group 1",
 * "Condition 2 of group 1" ("Group 1.1" inside group 1's nested condition), and adding or removing
 * one moves the focus to where the work goes on.
 *
 * Its props are the API other pages build on (the segment builder, the campaign composer's
 * FILTERED audience): keep them stable.
 */
export function FilterBuilder({ value, onChange, label = 'Filter', problems = [], excludeSegmentId }: FilterBuilderProps): ReactNode {
  const { project } = useSession();
  const fields = useQuery({ queryKey: ['contacts', project?.id, 'fields'], queryFn: () => api<{ fields: KnownField[] }>('GET', '/contacts/fields'), staleTime: 60_000 });
  const events = useQuery({ queryKey: ['events', project?.id, 'names'], queryFn: () => api<{ data: string[] }>('GET', '/events/names'), staleTime: 60_000 });
  const segments = useQuery({ queryKey: ['segments', project?.id, 'list'], queryFn: () => api<{ data: SegmentChoice[] }>('GET', '/segments') });
  const root = useRef<HTMLDivElement>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  // the edit and the focus request are drawn in one commit: the target is there now, or never
  useEffect(() => {
    if (focusKey === null) return;
    root.current?.querySelector<HTMLElement>(`[data-focus-key="${focusKey}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey]);
  const total = countFilters(value);
  const catalog: Catalog = {
    fields: fields.data?.fields ?? [],
    events: events.data?.data ?? [],
    segments: (segments.data?.data ?? []).filter((s) => s.id !== excludeSegmentId),
    problems,
    roomForMore: total < MAX_FILTERS,
    focus: setFocusKey,
  };
  const loadFailed = [fields, events, segments].find((q) => q.isError);
  return (
    <CatalogContext.Provider value={catalog}>
      <div className="filter-builder" role="group" aria-label={label} ref={root}>
        {loadFailed && (
          <p role="alert" className="error">
            The fields, events or segments of the project could not be read: {loadFailed.error?.message}
          </p>
        )}
        <OtherProblems problems={problems} />
        <ConditionEditor condition={value} onChange={onChange} path="" name="" depth={1} />
        {!catalog.roomForMore && <p className="hint">A condition holds at most {MAX_FILTERS} conditions in all.</p>}
      </div>
    </CatalogContext.Provider>
  );
}
