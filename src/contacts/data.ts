import { fieldPath, validationFailed } from '../errors.js';

/** Keys that never land in contact data, whatever the input (the spec's reserved list). */
export const RESERVED_DATA_KEYS = new Set(['id', 'svc_id', 'svc_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl']);

export type ContactData = Record<string, unknown>;

export interface MergedData {
  /** The contact's data after the input is applied. */
  data: ContactData;
  /** `{ value, persistent: false }` entries: usable for this request only, never stored. */
  oneOff: ContactData;
  changed: boolean;
}

function isOneOff(value: unknown): value is { value: unknown; persistent: false } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { persistent?: unknown }).persistent === false &&
    'value' in value
  );
}

/** How deep contact data may nest; the data object itself is level 1 (SQLite's JSON functions stop at 1000). */
export const MAX_DATA_DEPTH = 32;
/** Keys a contact's data holds at most, and keys one write may name. */
export const MAX_DATA_KEYS = 200;
/** The longest data key, in code points (what JSON Schema's maxLength counts, and the fields routes accept). */
export const MAX_DATA_KEY_LENGTH = 200;

const tooBig = (field: string, message: string) => validationFailed([{ field, message, code: 'too_big' }]);

/** Code points, as JSON Schema's maxLength counts them, without copying the string. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The start of a key too long to echo whole (an imported header cell may be megabytes). */
const keyPreview = (key: string) => JSON.stringify([...key.slice(0, 80)].slice(0, 40).join('') + '…');

/**
 * The limits of the input itself: at most MAX_DATA_KEYS keys, each at most MAX_DATA_KEY_LENGTH
 * characters; a key being deleted (null) may be longer, so that data stored before the limit can
 * still be removed.
 */
function assertInputLimits(input: ContactData, at: string): void {
  const keys = Object.keys(input);
  if (keys.length > MAX_DATA_KEYS) throw tooBig(at, `Contact data takes at most ${MAX_DATA_KEYS} keys in one write; this one has ${keys.length}`);
  for (const key of keys) {
    if (input[key] === null || key.length <= MAX_DATA_KEY_LENGTH) continue;
    const length = codePoints(key);
    if (length > MAX_DATA_KEY_LENGTH) throw tooBig(at, `Data keys are at most ${MAX_DATA_KEY_LENGTH} characters; ${keyPreview(key)} has ${length}`);
  }
}

/** The path (below `data`) of the first object or array nested deeper than MAX_DATA_DEPTH, or null. */
function tooDeepIn(input: ContactData): string[] | null {
  const stack: { value: object; depth: number; path: string[] }[] = [{ value: input, depth: 1, path: [] }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    for (const [key, child] of Object.entries(top.value)) {
      if (child === null || typeof child !== 'object') continue;
      const path = [...top.path, key];
      if (top.depth === MAX_DATA_DEPTH) return path;
      stack.push({ value: child as object, depth: top.depth + 1, path });
    }
  }
  return null;
}

/** Too deep is 422 naming the field, before anything is stored. */
function assertDepth(input: ContactData, at: string): void {
  const path = tooDeepIn(input);
  if (path) {
    throw validationFailed([{ field: fieldPath([at, ...path]), message: `Contact data nests at most ${MAX_DATA_DEPTH} levels`, code: 'too_deep' }]);
  }
}

/**
 * Checks a data input against the limits of every write (keys, key length, depth): 422 naming what
 * is over (under the field `at`), before anything is stored. A workflow's UPDATE_CONTACT updates
 * are checked so when saved, and a workflow execution's variables are held to the same limits.
 */
export function assertDataInput(input: ContactData, at = 'data'): void {
  assertInputLimits(input, at);
  assertDepth(input, at);
}

/**
 * The data rules of the spec: reserved keys dropped, null deletes, empty string is skipped,
 * `{value, persistent: false}` is one-off, anything else (primitives, arrays, objects) is stored.
 * Every write of contact data passes here (send, track, the contacts routes, CSV import, the
 * workflow UPDATE_CONTACT step; bulk jobs change only subscriptions), so its limits hold on every
 * path: a contact holds at most MAX_DATA_KEYS keys (one already past it, from before the limit,
 * may shrink and change, not grow).
 */
export function mergeData(existing: ContactData, input: ContactData | undefined): MergedData {
  if (input) assertDataInput(input);
  const data: ContactData = { ...existing };
  const oneOff: ContactData = {};
  let changed = false;
  for (const [key, value] of Object.entries(input ?? {})) {
    if (RESERVED_DATA_KEYS.has(key) || key === '__proto__' || value === '' || value === undefined) continue;
    if (isOneOff(value)) {
      oneOff[key] = value.value;
    } else if (value === null) {
      if (key in data) {
        delete data[key];
        changed = true;
      }
    } else if (JSON.stringify(data[key]) !== JSON.stringify(value)) {
      data[key] = value;
      changed = true;
    }
  }
  if (changed) {
    const held = Object.keys(data).length;
    if (held > MAX_DATA_KEYS && held > Object.keys(existing).length) {
      throw tooBig('data', `A contact's data holds at most ${MAX_DATA_KEYS} keys; this write would leave it with ${held}`);
    }
  }
  return { data, oneOff, changed };
}
