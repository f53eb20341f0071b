import type { Ctx } from '../context.js';
import { ApiError, conflict } from '../errors.js';
import { sql } from '../store/db.js';
import { RESERVED_DATA_KEYS } from './data.js';
import { isFieldUsed } from './field-usage.js';
import { countContacts } from './store.js';

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

const ISO_DATE = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'";

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

/** Standard fields and every custom data key with its inferred type and the share of contacts that have it. */
export function listFields(ctx: Ctx, projectId: string): { fields: FieldInfo[]; count: number } {
  const total = countContacts(ctx.db, projectId);
  const rows = sql(
    ctx.db,
    `SELECT j.key AS key, j.type AS type, COUNT(*) AS n, SUM(j.type = 'text' AND j.atom GLOB ${ISO_DATE}) AS dates
     FROM contacts c, json_each(c.data) j WHERE c.project_id = ? AND j.type != 'null' GROUP BY j.key, j.type`,
  ).all(projectId) as { key: string; type: string; n: number; dates: number }[];
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

/** `data.x` and `x` both name the custom key `x`; standard and reserved names are refused. */
export function customKey(field: string): string {
  const key = field.startsWith('data.') ? field.slice(5) : field;
  if (key === '' || key.includes('"') || key.length > 200) {
    throw new ApiError(422, 'VALIDATION_ERROR', 'Invalid field name', { errors: [{ field: 'field', message: 'Invalid field name', code: 'invalid_string', received: field }] });
  }
  if (STANDARD.some((s) => s.field === key) || RESERVED_DATA_KEYS.has(key)) {
    throw new ApiError(400, 'BAD_REQUEST', `"${key}" is a standard field, not a custom data field`);
  }
  return key;
}

const jsonPath = (key: string) => `$."${key}"`;

export function fieldValues(ctx: Ctx, projectId: string, field: string, limit: number) {
  const key = customKey(field);
  const path = jsonPath(key);
  const rows = sql(
    ctx.db,
    `SELECT json_extract(data, ?) AS value, json_type(data, ?) AS type, COUNT(*) AS count FROM contacts
     WHERE project_id = ? AND json_type(data, ?) != 'null' GROUP BY value, type ORDER BY count DESC, value LIMIT ?`,
  ).all(path, path, projectId, path, limit) as { value: unknown; type: string; count: number }[];
  const values = rows.map((r) => ({
    value:
      r.type === 'object' || r.type === 'array' ? JSON.parse(String(r.value)) : r.type === 'true' ? true : r.type === 'false' ? false : r.value,
    count: r.count,
  }));
  return { field: `data.${key}`, values };
}

export function usageOfField(ctx: Ctx, projectId: string, field: string) {
  const key = customKey(field);
  return { field: `data.${key}`, ...ctx.usage.fields.collect(ctx, projectId, key) };
}

/** Removes the key from every contact of the project; refused while a segment, campaign or workflow uses it. */
export function deleteField(ctx: Ctx, projectId: string, field: string): { field: string; updated: number } {
  const key = customKey(field);
  const usage = ctx.usage.fields.collect(ctx, projectId, key);
  if (isFieldUsed(usage)) throw conflict(`The field data.${key} is in use`, { ...usage });
  const updated = sql(
    ctx.db,
    'UPDATE contacts SET data = json_remove(data, ?), updated_at = ? WHERE project_id = ? AND json_type(data, ?) IS NOT NULL',
  ).run(jsonPath(key), ctx.clock.now(), projectId, jsonPath(key)).changes;
  return { field: `data.${key}`, updated };
}
