// The value of one filter, edited as the field's type says: text, a number, true or false, a date
// and time (the person's time zone, sent as an ISO 8601 instant), JSON for objects and lists, a
// number of days, hours or minutes, a segment. A field whose type is not one (mixed, or a data path
// GET /contacts/fields does not list) lets the person choose the value's type. A value not finished
// (an empty number, JSON that does not parse) is sent as no value, so the API says what is missing.
import { useState } from 'react';
import { carry } from './filterKeys';
import { choicesFor, chosenTypeOf, CHOSEN_TYPES, fromLocalInput, localInput, startValue, type ChosenType, type FieldType, type Filter, type Unit, type ValueKind, valueKindOf } from './filterModel';

export interface SegmentChoice {
  id: string;
  name: string;
  type: 'DYNAMIC' | 'STATIC';
}

interface ValueProps {
  filter: Filter;
  type: FieldType;
  onChange(f: Filter): void;
  segments: SegmentChoice[];
  /** The id of the text that says what is wrong with the value, when something is. */
  problemId: string | undefined;
}

/** An input whose text is kept as typed while it does not parse yet (`parse` answers undefined then). */
function DraftInput({ label, type, initial, parse, onValue, problemId, ...rest }: { label: string; type: string; initial: string; parse(text: string): unknown; onValue(v: unknown): void; problemId: string | undefined; min?: number; step?: string }) {
  const [text, setText] = useState(initial);
  const unparsed = text !== '' && parse(text) === undefined;
  return (
    <label>
      {label}
      <input
        {...rest}
        type={type}
        value={text}
        aria-invalid={problemId !== undefined || unparsed}
        aria-describedby={problemId}
        onChange={(e) => {
          setText(e.target.value);
          onValue(parse(e.target.value));
        }}
      />
    </label>
  );
}

const numberOf = (text: string): number | undefined => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The filter with `value` (none when undefined). */
function valued(f: Filter, value: unknown): Filter {
  const { value: _old, ...rest } = f;
  return carry(f, value === undefined ? rest : { ...rest, value });
}

/** One editor for a value of a known kind. */
function TypedValue({ kind, filter, onChange, segments, problemId }: { kind: Exclude<ValueKind, 'none' | 'choice'> } & Omit<ValueProps, 'type'>) {
  const set = (v: unknown) => onChange(valued(filter, v));
  const a11y = { 'aria-invalid': problemId !== undefined, 'aria-describedby': problemId };
  switch (kind) {
    case 'text':
      return (
        <label>
          Value
          <input value={typeof filter.value === 'string' || typeof filter.value === 'number' ? String(filter.value) : ''} onChange={(e) => set(e.target.value)} {...a11y} />
        </label>
      );
    case 'number':
      return <DraftInput label="Value" type="number" step="any" initial={typeof filter.value === 'number' ? String(filter.value) : ''} parse={numberOf} onValue={set} problemId={problemId} />;
    case 'boolean':
      return (
        <label>
          Value
          <select value={String(filter.value === true)} onChange={(e) => set(e.target.value === 'true')} {...a11y}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </label>
      );
    case 'date':
      return <DraftInput label="Date and time" type="datetime-local" initial={localInput(filter.value)} parse={fromLocalInput} onValue={set} problemId={problemId} />;
    case 'json':
      return <DraftInput label="Value (JSON)" type="text" initial={filter.value === undefined ? '' : JSON.stringify(filter.value)} parse={jsonOf} onValue={set} problemId={problemId} />;
    case 'span':
      return (
        <>
          <DraftInput label="Amount" type="number" min={0} step="any" initial={typeof filter.value === 'number' ? String(filter.value) : ''} parse={numberOf} onValue={set} problemId={problemId} />
          <label>
            Unit
            <select value={filter.unit ?? 'days'} onChange={(e) => onChange(carry(filter, { ...filter, unit: e.target.value as Unit }))}>
              <option value="days">days</option>
              <option value="hours">hours</option>
              <option value="minutes">minutes</option>
            </select>
          </label>
        </>
      );
    case 'segment': {
      const known = segments.some((s) => s.id === filter.value);
      return (
        <label>
          Segment
          <select value={typeof filter.value === 'string' ? filter.value : ''} onChange={(e) => set(e.target.value)} {...a11y}>
            {!known && <option value={typeof filter.value === 'string' ? filter.value : ''}>{filter.value ? 'A segment not in this project' : 'Choose a segment'}</option>}
            {segments.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.type === 'STATIC' ? 'static' : 'dynamic'})
              </option>
            ))}
          </select>
        </label>
      );
    }
  }
}

/** A value whose type the person chooses (the field's type does not say). */
function ChosenValue({ filter, onChange, segments, problemId }: Omit<ValueProps, 'type'>) {
  const allowed = choicesFor(filter.operator);
  const [chosen, setChosen] = useState<ChosenType>(() => chosenTypeOf(filter.value, allowed));
  const type = allowed.includes(chosen) ? chosen : allowed[0]!;
  return (
    <>
      <label>
        Value type
        <select
          value={type}
          onChange={(e) => {
            const next = e.target.value as ChosenType;
            setChosen(next);
            onChange(valued(filter, startValue(next)));
          }}
        >
          {allowed.map((t) => (
            <option key={t} value={t}>
              {CHOSEN_TYPES[t]}
            </option>
          ))}
        </select>
      </label>
      <TypedValue key={type} kind={type} filter={filter} onChange={onChange} segments={segments} problemId={problemId} />
    </>
  );
}

export function FilterValue({ type, ...props }: ValueProps) {
  const kind = valueKindOf(props.filter, type);
  if (kind === 'none') return null;
  // a new kind of value is a new editor: what was typed for the old one does not carry over
  if (kind === 'choice') return <ChosenValue key={kind} {...props} />;
  return <TypedValue key={kind} kind={kind} {...props} />;
}
