import { validationFailed } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that must be a uuid (the spec's 422 otherwise). */
export function uuidParam(value: string | undefined, field = 'id'): string {
  if (value !== undefined && UUID.test(value)) return value.toLowerCase();
  throw validationFailed([{ field, message: 'Expected a uuid', code: 'invalid_string', received: value ?? null }], `The path parameter ${field} must be a uuid`);
}
