import type { Core } from '../core.js';
import { badRequest, conflict, validationFailed } from '../errors.js';
import { MAX_DATA_KEY_LENGTH, RESERVED_DATA_KEYS } from './data.js';
import { countKeyTypes, countKeyValues, keyWindow, removeKey } from './fields-store.js';
import { isFieldUsed, type FieldUsage } from './field-usage.js';
import { countContacts } from './store.js';
import { readFor } from '../store/reader.js';
import { WRITE_BATCH, yieldToEventLoop } from '../store/batches.js';

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'array' | 'mixed';

export interface FieldInfo {
  field: string;
  type: FieldType;
  coverage: number;
}

const STANDARD: { field: string; type: FieldType }[] = [
  { field: 'email', type: 'string' },
  { field: 'subscribed', type: 'boolean' },
  { field: 'createdAt', type: 'date' },
  { field: 'updatedAt', type: 'date' },
];

function kindOf(jsonType: string, allDates: boolean): FieldType {
  switch (jsonType) {
    case 'integer':
    case 'real':
      return 'number';
    case 'true':
    case 'false':
      return 'boolean';
    case 'text':
      return allDates ? 'date' : 'string';
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    default:
      return 'mixed';
  }
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** Standard fields and every custom data key with its inferred type and the share of contacts that have it (read on a reader thread). */
export async function listFields(core: Core, projectId: string): Promise<{ fields: FieldInfo[]; count: number }> {
  const rows = await countKeyTypes(core.reader, readFor(core.config, projectId, 'request'));
  const total = countContacts(core.db, projectId);
  const custom = new Map<string, { types: Set<FieldType>; n: number }>();
  for (const row of rows) {
    const entry = custom.get(row.key) ?? { types: new Set<FieldType>(), n: 0 };
    entry.types.add(kindOf(row.type, row.dates === row.n));
    entry.n += row.n;
    custom.set(row.key, entry);
  }
  const fields: FieldInfo[] = [
    ...STANDARD.map((s) => ({ ...s, coverage: total === 0 ? 0 : 100 })),
    ...[...custom.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, e]) => ({
        field: `data.${key}`,
        type: e.types.size === 1 ? [...e.types][0]! : ('mixed' as const),
        coverage: percent(e.n, total),
      })),
  ];
  return { fields, count: fields.length };
}

/**
 * The custom key a field names. `data.<key>` names the key exactly as `GET /contacts/fields` lists it,
 * whatever its characters (even `data.email` style names of keys that shadow a standard field);
 * a bare `<key>` is accepted too, unless it is a standard field. Reserved keys are never stored.
 */
export function customKey(field: string): string {
  const prefixed = field.startsWith('data.');
  const key = prefixed ? field.slice(5) : field;
  if ((!prefixed && key === '') || [...key].length > MAX_DATA_KEY_LENGTH) {
    throw validationFailed([{ field: 'field', message: `A field is data.<key> with a key of at most ${MAX_DATA_KEY_LENGTH} characters`, code: 'invalid_string', received: field }]);
  }
  if (!prefixed && STANDARD.some((s) => s.field === key)) {
    throw badRequest(`"${key}" is a standard field, not a custom data field`, `Name a custom field as data.<key>`);
  }
  if (RESERVED_DATA_KEYS.has(key)) throw badRequest(`"${key}" is a reserved key that contact data never holds`);
  return key;
}

export async function fieldValues(core: Core, projectId: string, field: string, limit: number) {
  const key = customKey(field);
  const values = (await countKeyValues(core.reader, readFor(core.config, projectId, 'request'), key, limit)).map((r) => ({
    value:
      r.type === 'object' || r.type === 'array' ? JSON.parse(String(r.value)) : r.type === 'true' ? true : r.type === 'false' ? false : r.value,
    count: r.count,
  }));
  return { field: `data.${key}`, values };
}

/** Where a field of a project is referenced (the usage registry's answer, handed in by the routes). */
export type FieldUsageOf = (projectId: string, key: string) => FieldUsage;

export function usageOfField(usageOf: FieldUsageOf, projectId: string, field: string) {
  const key = customKey(field);
  return { field: `data.${key}`, ...usageOf(projectId, key) };
}

/**
 * Removes the key from every contact of the project; refused while a segment, campaign or workflow
 * uses it. The contacts are walked in id order a window at a time: a reader thread finds those of
 * the window that hold the key, one transaction removes it from them, and the event loop has its
 * turn before the next window, so a million contacts never hold the API up for more than a window.
 * Interrupted (a restart), the key stays on the contacts not reached yet: the same DELETE finishes it.
 */
export async function deleteField(core: Core, usageOf: FieldUsageOf, projectId: string, field: string): Promise<{ field: string; updated: number }> {
  const key = customKey(field);
  const usage = usageOf(projectId, key);
  if (isFieldUsed(usage)) throw conflict(`The field data.${key} is in use`, { ...usage });
  const read = readFor(core.config, projectId, 'request');
  let updated = 0;
  for (let after = ''; ; ) {
    const window = await keyWindow(core.reader, read, key, after, WRITE_BATCH);
    if (window.withKey.length > 0) updated += removeKey(core.db, projectId, key, window.withKey, core.clock.now());
    if (window.size < WRITE_BATCH) return { field: `data.${key}`, updated };
    after = window.last!;
    await yieldToEventLoop();
  }
}
