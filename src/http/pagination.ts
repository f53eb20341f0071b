import { ApiError } from '../errors.js';
import type { Dir } from '../store/offset-page.js';

/** Unknown `sort` values fall back to createdAt, unknown `dir` to desc (the spec's rule). */
export function sortParams<S extends string>(query: Record<string, unknown>, allowed: readonly S[], fallback: S): { sort: S; dir: Dir } {
  const sort = allowed.includes(query.sort as S) ? (query.sort as S) : fallback;
  const dir: Dir = query.dir === 'asc' || query.dir === 'desc' ? query.dir : 'desc';
  return { sort, dir };
}

/** Query integers; anything else, or one too large to be exact, falls back. */
function intParam(raw: unknown, fallback: number): number {
  if (typeof raw !== 'string' || !/^\s*-?\d{1,15}\s*$/.test(raw)) return fallback;
  return Number(raw);
}

/** Cursor lists: limit 1..100, default 20, larger values clamped. */
export function cursorLimit(raw: unknown): number {
  const n = intParam(raw, 20);
  return Math.min(Math.max(n, 1), 100);
}

/** Offset lists: page >= 1, pageSize 1..100 (clamped), both defaulting as the spec says. */
export function pageParams(query: Record<string, unknown>, maxPageSize = 100): { page: number; pageSize: number; offset: number } {
  const page = Math.max(intParam(query.page, 1), 1);
  const pageSize = Math.min(Math.max(intParam(query.pageSize, 20), 1), maxPageSize);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pageResult<T>(data: T[], total: number, page: number, pageSize: number) {
  return { data, page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}

/** An opaque cursor: the sort key and id of the last row of a page. */
export interface CursorPosition {
  key: string | number;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

export function decodeCursor(raw: unknown): CursorPosition | null {
  if (raw === undefined || raw === '') return null;
  try {
    const [key, id] = JSON.parse(Buffer.from(String(raw), 'base64url').toString('utf8')) as unknown[];
    if ((typeof key === 'string' || typeof key === 'number') && typeof id === 'string') return { key, id };
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'BAD_REQUEST', 'Invalid cursor', { suggestion: 'Pass back the cursor of the previous page unchanged' });
}
