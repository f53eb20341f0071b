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

/** Every write of contact data passes here (mergeData): too deep is 422 naming the field, before anything is stored. */
function assertDepth(input: ContactData): void {
  const path = tooDeepIn(input);
  if (path) {
    throw validationFailed([{ field: fieldPath(['data', ...path]), message: `Contact data nests at most ${MAX_DATA_DEPTH} levels`, code: 'too_deep' }]);
  }
}

/**
 * The data rules of the spec: reserved keys dropped, null deletes, empty string is skipped,
 * `{value, persistent: false}` is one-off, anything else (primitives, arrays, objects) is stored.
 */
export function mergeData(existing: ContactData, input: ContactData | undefined): MergedData {
  if (input) assertDepth(input);
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
  return { data, oneOff, changed };
}
