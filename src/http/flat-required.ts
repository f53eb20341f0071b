import { FlatError } from '../errors.js';

/**
 * The spec's flat 400 `{error}` of a few create routes for an object body (or none) missing required
 * fields; a body of another shape is left to the schema's 422.
 */
export function requireFlat(raw: unknown, fields: readonly string[]): void {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) return;
  const missing = fields.filter((field) => raw === undefined || !(field in raw));
  if (missing.length > 0) throw new FlatError(400, `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`);
}
