// The value of one filter, edited as the field's type says: text, a number, true or false, a date
// and time (the person's time zone, sent as an ISO 8601 instant), JSON for objects and lists, a
// number of days, hours or minutes, a segment. A field whose type is not one (mixed, or a data path
// GET /contacts/fields does not list) lets the person choose the value's type. A value not finished
// (an empty number, JSON that does not parse) is sent as no value, so the API says what is missing.
import { useState } from 'react';
import { carry } from './filterKeys';
import { choicesFor, chosenTypeOf, CHOSEN_TYPES, startValue, textOf, valueKindOf, valueOfText, type ChosenType, type EditorKind, type FieldType, type Filter, type Unit } from './filterModel';

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

/** An input whose text is kept as typed while it is not a value of its kind yet. */
function DraftInput({ label, kind, type, value, onValue, problemId, ...rest }: { label: string; kind: EditorKind; type: string; value: unknown; onValue(v: unknown): void; problemId: string | undefined; min?: number; step?: string }) {
  const [text, setText] = useState(() => textOf(kind, value));
  const unparsed = text !== '' && valueOfText(kind, text) === undefined;
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
          onValue(valueOfText(kind, e.target.value));
        }}
      />
    </label>
  );
}

/** The filter with `value` (none when undefined). */
function valued(f: Filter, value: unknown): Filter {
  const { value: _old, ...rest } = f;
  return carry(f, value === undefined ? rest : { ...rest, value });
}

/** One editor for a value of a known kind. */
function TypedValue({ kind, filter, onChange, segments, problemId }: { kind: EditorKind } & Omit<ValueProps, 'type'>) {
  const set = (v: unknown) => onChange(valued(filter, v));
  const a11y = { 'aria-invalid': problemId !== undefined, 'aria-describedby': problemId };
  const draft = { kind, value: filter.value, onValue: set, problemId };
  switch (kind) {
    case 'text':
      return (
        <label>
          Value
          <input value={textOf(kind, filter.value)} onChange={(e) => set(valueOfText(kind, e.target.value))} {...a11y} />
        </label>
      );
    case 'number':
      return <DraftInput label="Value" type="number" step="any" {...draft} />;
    case 'boolean':
      return (
        <label>
          Value
          <select value={textOf(kind, filter.value)} onChange={(e) => set(valueOfText(kind, e.target.value))} {...a11y}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </label>
      );
    case 'date':
      return <DraftInput label="Date and time" type="datetime-local" {...draft} />;
    case 'json':
      return <DraftInput label="Value (JSON)" type="text" {...draft} />;
    case 'span':
      return (
        <>
          <DraftInput label="Amount" type="number" min={0} step="any" {...draft} />
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
      const id = textOf(kind, filter.value);
      const known = segments.some((s) => s.id === id);
      return (
        <label>
          Segment
          <select value={id} onChange={(e) => set(valueOfText(kind, e.target.value))} {...a11y}>
            {!known && <option value={id}>{id ? 'A segment not in this project' : 'Choose a segment'}</option>}
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
