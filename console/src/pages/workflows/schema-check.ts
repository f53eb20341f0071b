// A step's form is checked before it is sent with the same JSON Schemas the API validates it with
// (schema/workflow-step-config.json, schema/filter.json), and with their wording (`x-error`), so
// most mistakes show on their field at once. The keywords the step configs use are read here; what
// a schema cannot see (the template exists, placeholders stand where they may) the API's 422 says,
// on the same fields.
import filterSchema from '../../../../schema/filter.json';
import stepConfigSchema from '../../../../schema/workflow-step-config.json';
import stepSchema from '../../../../schema/workflow-step.json';
import type { AddableStepType } from '../Workflows';

interface Schema {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxProperties?: number;
  if?: Schema;
  then?: Schema;
  const?: unknown;
  'x-error'?: string;
}

/** Field errors by dotted path (`config.url`, `config.headers.X-Key`, `name`): what the API's 422 lists too. */
export type FieldErrors = Record<string, string>;

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const typeFits = (want: string, v: unknown) => want === jsonType(v) || (want === 'number' && typeof v === 'number');

/** Whether `value` meets `schema` as far as the `if` of a conditional needs (const and required). */
function matches(schema: Schema, value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const obj = value as Record<string, unknown>;
  if (schema.required?.some((k) => obj[k] === undefined)) return false;
  return Object.entries(schema.properties ?? {}).every(([k, s]) => s.const === undefined || obj[k] === s.const);
}

function check(schema: Schema, value: unknown, path: string, errors: FieldErrors): void {
  const say = (message: string) => void (errors[path] ??= schema['x-error'] ?? message);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeFits(t, value))) {
      errors[path] ??= `Expected ${types.join(' or ')}, received ${jsonType(value)}`;
      return;
    }
  }
  if (schema.enum && !schema.enum.includes(value)) say('Expected one of ' + schema.enum.join(', '));
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) say(`At least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) say(`At most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) say('Invalid value');
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) say(`At least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) say(`At most ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) say(`More than ${schema.exclusiveMinimum}`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    const required = [...(schema.required ?? []), ...(schema.if && schema.then && matches(schema.if, value) ? (schema.then.required ?? []) : [])];
    for (const key of required) if (obj[key] === undefined) errors[at(key)] ??= 'Required';
    if (schema.maxProperties !== undefined && Object.keys(obj).length > schema.maxProperties) say(`At most ${schema.maxProperties} entries`);
    for (const [key, v] of Object.entries(obj)) {
      if (v === undefined) continue;
      const own = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (own) check(own, v, at(key), errors);
    }
  }
}

const CONFIG = stepConfigSchema.$defs as unknown as Record<AddableStepType, Schema>;
const configSchema = (type: AddableStepType): Schema => (type === 'CONDITION' ? (filterSchema as unknown as Schema) : CONFIG[type]);

/** The errors of a step's name and config, keyed as the API keys them (`name`, `config.*`); empty when it may be sent. */
export function stepErrors(type: AddableStepType, name: string, config: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  check((stepSchema.properties as unknown as Record<string, Schema>).name!, name, 'name', errors);
  check(configSchema(type), config, 'config', errors);
  return errors;
}

/** The field errors of a 422, keyed by field. */
export const fieldErrorsOf = (fields: { field: string; message: string }[]): FieldErrors => Object.fromEntries(fields.map((f) => [f.field, f.message]));
