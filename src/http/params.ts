import { badRequest, validationFailed } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that must be a uuid (the spec's 422 otherwise). */
export function uuidParam(value: string | undefined, field = 'id'): string {
  if (value !== undefined && UUID.test(value)) return value.toLowerCase();
  throw validationFailed([{ field, message: 'Expected a uuid', code: 'invalid_string', received: value ?? null }], `The path parameter ${field} must be a uuid`);
}

/** A query filter over a fixed set of upper-case values: absent or empty is no filter, an unknown value the spec's 400. */
export function enumQuery<T extends string>(raw: unknown, allowed: readonly T[], what: string): T | null {
  if (raw === undefined || raw === '') return null;
  const value = typeof raw === 'string' ? raw.toUpperCase() : '';
  if (allowed.includes(value as T)) return value as T;
  throw badRequest(`Unknown ${what} ${JSON.stringify(raw)}`, `Use one of ${allowed.join(', ')}`);
}
