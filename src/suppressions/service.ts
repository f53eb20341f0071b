// The suppressions list and its one write: removing a suppression, with the reason kept. The
// contact's subscription is left as it is: a removal lets mail reach the address again, it does
// not sign anyone up.
import type { Bus } from '../bus/bus.js';
import { iso, type Clock } from '../clock.js';
import { badRequest, notFound } from '../errors.js';
import { encodeCursor, type CursorPosition } from '../http/pagination.js';
import type { Db } from '../store/db.js';
import { readFor, type Reader } from '../store/reader.js';
import type { Config } from '../config.js';
import { listRemovals, removeSuppression, suppressionPageQuery, suppressionRows, toSuppression, type SuppressionReason, type SuppressionRemoval, type SuppressionRow } from './store.js';

export const SUPPRESSION_REASONS: SuppressionReason[] = ['bounce', 'complaint'];

export interface SuppressionListQuery {
  limit: number;
  cursor: CursorPosition | null;
  search: string | null;
  reason: SuppressionReason | null;
}

function afterOf(cursor: CursorPosition | null): { at: number; email: string } | null {
  if (!cursor) return null;
  if (typeof cursor.key !== 'number') throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  return { at: cursor.key, email: cursor.id };
}

/**
 * A page of suppressions, newest first. A plain page reads `limit` index entries on the main
 * connection; a search or a reason filter may scan the project's suppressions to fill a page, so
 * it runs on a reader thread within a request's budget.
 */
export async function listSuppressions(deps: { db: Db; reader: Reader; config: Config }, projectId: string, q: SuppressionListQuery) {
  const statement = suppressionPageQuery(projectId, { reason: q.reason, search: q.search?.toLowerCase() ?? null, after: afterOf(q.cursor), limit: q.limit + 1 });
  const filtered = q.search !== null || q.reason !== null;
  const rows = filtered ? await deps.reader.all<SuppressionRow>(readFor(deps.config, projectId, 'request'), statement.text, statement.params) : suppressionRows(deps.db, statement);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit).map(toSuppression);
  const last = page[page.length - 1];
  return {
    data: page.map((s) => ({ ...s, createdAt: iso(s.createdAt) })),
    cursor: hasMore && last ? encodeCursor({ key: last.createdAt, id: last.email }) : null,
    hasMore,
  };
}

export const presentRemoval = (r: SuppressionRemoval) => ({
  id: r.id,
  email: r.email,
  reason: r.reason,
  suppressedAt: iso(r.suppressedAt),
  removedBy: r.removedBy,
  note: r.note,
  removedAt: iso(r.removedAt),
});

/** Removes the suppression of `email` (404 when there is none) and keeps who, when and why. */
export function unsuppress(deps: { db: Db; clock: Clock; bus: Bus }, projectId: string, email: string, who: string, note: string): SuppressionRemoval {
  const removal = deps.bus.tx(() => removeSuppression(deps.db, projectId, email, who, note, deps.clock.now()));
  if (!removal) throw notFound('Suppression');
  return removal;
}

export function suppressionRemovals(db: Db, projectId: string, cursor: CursorPosition | null, limit: number) {
  const before = cursor === null ? null : Number(cursor.id);
  if (before !== null && !Number.isSafeInteger(before)) throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  const rows = listRemovals(db, projectId, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page.map(presentRemoval), cursor: rows.length > limit && last ? encodeCursor({ key: 0, id: String(last.id) }) : null, hasMore: rows.length > limit };
}
