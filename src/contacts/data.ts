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

/**
 * The data rules of the spec: reserved keys dropped, null deletes, empty string is skipped,
 * `{value, persistent: false}` is one-off, anything else (primitives, arrays, objects) is stored.
 */
export function mergeData(existing: ContactData, input: ContactData | undefined): MergedData {
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
