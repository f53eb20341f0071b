import { badRequest } from '../errors.js';

/** An ISO 8601 (or epoch ms) query bound; absent is open-ended. */
export function timeBound(raw: unknown, name: string, open: number): number {
  if (raw === undefined || raw === '') return open;
  const text = String(raw);
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(ms)) throw badRequest(`"${name}" is not a date`, `Pass an ISO 8601 date-time such as ${new Date(0).toISOString()}`);
  return ms;
}

/** A list query parameter, comma-separated or repeated (`types=a,b` or `types=a&types=b`); null when absent. */
export function listParam(raw: unknown, name: string, max: number): string[] | null {
  const parts = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => String(v).split(','));
  const items = [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
  if (items.length > max) throw badRequest(`"${name}" lists ${items.length} values; at most ${max} are allowed`);
  return items.length > 0 ? items : null;
}
