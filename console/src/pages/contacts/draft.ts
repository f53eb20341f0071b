// The typed form's model of a contact's data: one draft per key with the control its value is
// edited in, the value a draft stands for (or the problem that stops it being sent), and the PATCH
// body that turns the saved data into the draft's (docs/api.md: data merges, null deletes a key).
import type { FieldProblem } from '../../api';
import type { FieldType } from '../../ui/filterModel';
import { DAY, MOMENT } from './values';

export type Control = 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'json';

/** The controls a new field can be given, in the order the type menu offers them. */
export const CONTROLS: { control: Control; label: string }[] = [
  { control: 'text', label: 'Text' },
  { control: 'number', label: 'Number' },
  { control: 'boolean', label: 'Yes or no' },
  { control: 'date', label: 'Date' },
  { control: 'datetime', label: 'Date and time' },
  { control: 'json', label: 'JSON (object or array)' },
];

export const controlLabel = (control: Control): string => CONTROLS.find((c) => c.control === control)!.label;

export interface Draft {
  key: string;
  control: Control;
  /** What the input holds (a checkbox's state is `checked`). */
  text: string;
  checked: boolean;
  /** Removed: sent as null when saved, until kept again. */
  removed: boolean;
  /** The text the draft started from and the value it stood for: unchanged text keeps the value exactly (a moment's milliseconds, a number's spelling). */
  base: { text: string; value: unknown } | null;
}

/** Keys the API drops from contact data (docs/api.md, "Contacts"): refused here rather than silently lost. */
const RESERVED = new Set(['id', 'svc_id', 'svc_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl', '__proto__']);
const MAX_KEY_LENGTH = 200;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** A date-and-time input's text (the viewer's local time, to the second) for a moment. */
function localText(iso: string): string {
  const time = new Date(iso);
  return new Date(time.getTime() - time.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
}

/** The control a value is edited in: a string is a date only where its field's type says dates. */
export function controlOf(value: unknown, type: FieldType | undefined): Control {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value !== 'string') return 'json';
  if (type !== 'date') return 'text';
  if (DAY.test(value)) return 'date';
  return MOMENT.test(value) && !Number.isNaN(new Date(value).getTime()) ? 'datetime' : 'text';
}

function textOf(value: unknown, control: Control): string {
  switch (control) {
    case 'boolean':
      return '';
    case 'datetime':
      return localText(value as string);
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return String(value);
  }
}

/** A draft of a stored (or written as JSON) value. */
export function draftOf(key: string, value: unknown, type: FieldType | undefined): Draft {
  const control = controlOf(value, type);
  const text = textOf(value, control);
  return { key, control, text, checked: value === true, removed: false, base: { text, value } };
}

/** An empty draft of a new field. */
export const newDraft = (key: string, control: Control): Draft => ({ key, control, text: '', checked: false, removed: false, base: null });

/** The value a draft stands for, or what is wrong with it (said on its field before anything is sent). */
export function valueOf(draft: Draft): { value: unknown } | { problem: string } {
  if (draft.control === 'boolean') return { value: draft.checked };
  const parsed = parse(draft.control, draft.text);
  return 'value' in parsed && draft.base?.text === draft.text ? { value: draft.base.value } : parsed;
}

function parse(control: Exclude<Control, 'boolean'>, text: string): { value: unknown } | { problem: string } {
  switch (control) {
    case 'text':
      return text === '' ? { problem: 'An empty text is not stored: write a value, or remove the field' } : { value: text };
    case 'number':
      return NUMBER.test(text.trim()) && Number.isFinite(Number(text)) ? { value: Number(text) } : { problem: 'Enter a number, such as 42 or -3.5' };
    case 'date':
      return DAY.test(text) ? { value: text } : { problem: 'Choose a date' };
    case 'datetime': {
      const time = new Date(text);
      return text !== '' && !Number.isNaN(time.getTime()) ? { value: time.toISOString() } : { problem: 'Choose a date and a time' };
    }
    case 'json':
      return jsonValue(text);
  }
}

function jsonValue(text: string): { value: unknown } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `Not valid JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object') return { problem: 'Write an object ({...}) or an array ([...]); other values have a type of their own' };
  // the API takes {value, persistent: false} as a one-off value and stores nothing
  if (!Array.isArray(value) && (value as { persistent?: unknown }).persistent === false && 'value' in value) {
    return { problem: 'An object with "value" and "persistent": false is a one-off value the API does not store' };
  }
  return { value };
}

/** What is wrong with the name of a new field, given the keys the form already has. */
export function keyProblem(key: string, taken: string[]): string | null {
  if (key === '') return 'Name the field';
  if ([...key].length > MAX_KEY_LENGTH) return `A field's name is at most ${MAX_KEY_LENGTH} characters`;
  if (RESERVED.has(key)) return `"${key}" is reserved: contact data never holds it`;
  if (taken.includes(key)) return `"${key}" is already a field of this contact: change its value above`;
  return null;
}

/** The problem of each draft that has one, by key. */
export function problemsOf(drafts: Draft[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const d of drafts) {
    const v = d.removed ? null : valueOf(d);
    if (v && 'problem' in v) problems[d.key] = v.problem;
  }
  return problems;
}

/** The data the drafts stand for (removed ones left out); call with drafts that have no problem. */
export function dataOf(drafts: Draft[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const d of drafts) {
    const v = d.removed ? null : valueOf(d);
    if (v && 'value' in v) data[d.key] = v.value;
  }
  return data;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The PATCH's `data`: what changed or is new, and null for each stored key the draft no longer has. */
export function patchOf(saved: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(saved)) if (!(key in next)) patch[key] = null;
  for (const [key, value] of Object.entries(next)) if (!same(saved[key], value)) patch[key] = value;
  return patch;
}

/**
 * Drafts of data written as JSON: the stored keys it leaves out (or sets to null) become removed
 * drafts, so the form shows what saving would delete. Throws a problem text when it is not an object.
 */
export function draftsOfJson(text: string, saved: Record<string, unknown>, typeOf: (key: string) => FieldType | undefined): Draft[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`The data is not valid JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('The data is a JSON object: {"field": value, ...}');
  const written = data as Record<string, unknown>;
  const removed = Object.keys(saved)
    .filter((key) => written[key] === undefined || written[key] === null)
    .map((key) => ({ ...draftOf(key, saved[key], typeOf(key)), removed: true }));
  const kept = Object.entries(written)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => draftOf(key, value, typeOf(key)));
  return [...kept, ...removed];
}

/**
 * The key a 422's field names (`data.tree.a.b` is the key `tree`, or `tree.a` where the form has
 * such a key: the longest wins), or null for a problem of the whole body.
 */
export function keyOfProblem(problem: FieldProblem, keys: string[]): string | null {
  let found: string | null = null;
  for (const key of keys) {
    const path = `data.${key}`;
    if ((problem.field === path || problem.field.startsWith(`${path}.`)) && key.length > (found?.length ?? -1)) found = key;
  }
  return found;
}
