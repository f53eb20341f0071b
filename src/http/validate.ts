import { Ajv, type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { isEmailAddress, parseEmailAddress } from '../addresses/email.js';
import { validationFailed, type FieldError } from '../errors.js';
import { listAssets, readAsset } from '../runtime/assets.js';

// ajv-formats is CommonJS: under NodeNext its default import is the plugin function itself.
const addFormats = formats as unknown as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
/** A schema's own wording for its failure, used instead of ajv's generic message. */
ajv.addKeyword({ keyword: 'x-error', schemaType: 'string' });
/** Email fields accept internationalised domains (the format ajv-formats has is ASCII only). */
ajv.addFormat('email', isEmailAddress);
/**
 * Rewrites a valid address to the form the API stores: an internationalised domain in punycode.
 * Anything else is left for the other keywords to judge (lookups take any string).
 */
ajv.addKeyword({
  keyword: 'x-ascii-domain',
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: false,
  validate: (enabled: boolean, data: string, _schema?: unknown, where?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number }) => {
    const parsed = enabled ? parseEmailAddress(data) : null;
    if (parsed && where) where.parentData[where.parentDataProperty] = parsed.address;
    return true;
  },
});

const compiled = new Map<string, ValidateFunction>();

let requestSchemas: ReadonlyMap<string, AnySchemaObject> | null = null;

/** Every schema/*.json by its `$id` (the file's name): what validates request bodies and what the OpenAPI document shows. */
export function schemasOfRequests(): ReadonlyMap<string, AnySchemaObject> {
  requestSchemas ??= new Map(
    listAssets('schema')
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readAsset(`schema/${f}`)) as AnySchemaObject)
      .map((schema) => [String(schema.$id), schema]),
  );
  return requestSchemas;
}

/** Compiles every request schema once at start. */
export function loadSchemas(): void {
  for (const [id, schema] of schemasOfRequests()) if (!ajv.getSchema(id)) ajv.addSchema(schema);
}

function validator(name: string): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    const found = ajv.getSchema(name);
    if (!found) throw new Error(`no request schema named ${name}`);
    compiled.set(name, (fn = found));
  }
  return fn;
}

const CODES: Record<string, string> = {
  type: 'invalid_type',
  required: 'invalid_type',
  maxLength: 'too_big',
  maxItems: 'too_big',
  maximum: 'too_big',
  maxProperties: 'too_big',
  minLength: 'too_small',
  minItems: 'too_small',
  minimum: 'too_small',
  minProperties: 'too_small',
  format: 'invalid_string',
  pattern: 'invalid_string',
  enum: 'invalid_enum_value',
  const: 'invalid_literal',
  additionalProperties: 'unrecognized_keys',
};

/** What we echo of a received value: primitives (long strings cut), the JSON type of anything else. */
function echo(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 100 ? value.slice(0, 100) + '…' : value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  return Array.isArray(value) ? 'array' : typeof value;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function fieldError(e: ErrorObject): FieldError {
  const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') path.push(String(params.missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String(params.additionalProperty));
  const own = (e.parentSchema as Record<string, unknown> | undefined)?.['x-error'];
  const message =
    typeof own === 'string' && e.keyword !== 'required' && e.keyword !== 'type'
      ? own
      : e.keyword === 'required'
        ? 'Required'
        : e.keyword === 'type'
          ? `Expected ${String(params.type).replace(',', ' or ')}, received ${jsonType(e.data)}`
          : e.keyword === 'additionalProperties'
            ? 'Unrecognized field'
            : (e.message ?? 'Invalid value');
  const error: FieldError = { field: path.join('.'), message, code: CODES[e.keyword] ?? 'custom' };
  if (e.keyword !== 'required' && e.keyword !== 'additionalProperties') error.received = echo(e.data);
  return error;
}

/** The field errors of `value` against schema `name`; empty when valid. */
export function schemaErrors(name: string, value: unknown): FieldError[] {
  const fn = validator(name);
  if (fn(value)) return [];
  // allErrors reports a failing `type` and its siblings for one field; keep the first error per field and keyword.
  const seen = new Set<string>();
  return (fn.errors ?? [])
    .filter((e) => e.keyword !== 'if' && e.keyword !== 'anyOf' && e.keyword !== 'oneOf')
    .map(fieldError)
    .filter((e) => {
      const id = e.field + '|' + e.code;
      return seen.has(id) ? false : (seen.add(id), true);
    });
}

/** Returns the body typed when it satisfies schema `name`, otherwise throws 422 VALIDATION_ERROR. */
export function validate<T>(name: string, value: unknown): T {
  const errors = schemaErrors(name, value);
  if (errors.length > 0) throw validationFailed(errors);
  return value as T;
}
