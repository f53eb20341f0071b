import { iso } from '../clock.js';
import { contactEmailsByIds } from '../contacts/store.js';
import type { Core } from '../core.js';
import { badRequest } from '../errors.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import { encodeCursor, type CursorPosition } from '../http/pagination.js';
import type { ActivityBound, ActivityEntry, ActivitySource, ActivitySources } from './sources.js';
import { eventCounts } from './store.js';

export interface ActivityParams {
  limit: number;
  cursor: CursorPosition | null;
  types: string[] | null;
  contactId: string | null;
  from: number;
  to: number;
}

/** Where the previous page ended: its last entry's time, source and key. */
interface FeedPosition {
  at: number;
  source: string;
  key: number;
}

const START: ActivityBound = { at: Number.MAX_SAFE_INTEGER, key: Number.MAX_SAFE_INTEGER };

function positionOf(cursor: CursorPosition | null): FeedPosition | null {
  if (!cursor) return null;
  const slash = cursor.id.lastIndexOf('/');
  const key = Number(cursor.id.slice(slash + 1));
  if (typeof cursor.key !== 'number' || slash <= 0 || !Number.isSafeInteger(key)) {
    throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  }
  return { at: cursor.key, source: cursor.id.slice(0, slash), key };
}

/**
 * The feed orders entries by time, then source name, then the source's key, all descending; so
 * entries of a source named after the cursor's came before it at the cursor's millisecond.
 */
function boundFor(source: ActivitySource, after: FeedPosition | null): ActivityBound {
  if (!after) return START;
  if (source.name === after.source) return { at: after.at, key: after.key };
  return source.name < after.source ? { at: after.at, key: Number.MAX_SAFE_INTEGER } : { at: after.at, key: -1 };
}

type Tagged = ActivityEntry & { source: string };

const newerFirst = (a: Tagged, b: Tagged) => b.at - a.at || (a.source < b.source ? 1 : a.source > b.source ? -1 : b.key - a.key);

/** One page of the feed: each source's newest entries past the cursor, merged. */
export function listActivity(core: Core, sources: ActivitySources, projectId: string, params: ActivityParams) {
  const after = positionOf(params.cursor);
  const merged: Tagged[] = [];
  for (const source of sources.all()) {
    const query = { projectId, limit: params.limit + 1, before: boundFor(source, after), from: params.from, to: params.to, types: params.types, contactId: params.contactId };
    for (const entry of source.entries(core, query)) merged.push({ ...entry, source: source.name });
  }
  merged.sort(newerFirst);
  const page = merged.slice(0, params.limit);
  const emails = contactEmailsByIds(core.db, projectId, [...new Set(page.flatMap((e) => (e.contactId ? [e.contactId] : [])))]);
  const last = page[page.length - 1];
  const hasMore = merged.length > params.limit;
  return {
    data: page.map((e) => ({
      id: e.id,
      type: e.type,
      timestamp: iso(e.at),
      contactId: e.contactId,
      contactEmail: e.contactId ? (emails.get(e.contactId) ?? null) : null,
      metadata: e.metadata,
    })),
    cursor: hasMore && last ? encodeCursor({ key: last.at, id: `${last.source}/${last.key}` }) : null,
    hasMore,
  };
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** Totals of the project's whole history, from the trigger-kept counters. Rates are percent of emails sent. */
export function activityStats(core: Core, projectId: string) {
  const counts = eventCounts(core.db, projectId);
  const count = (name: string) => counts.get(name)?.count ?? 0;
  const firsts = (name: string) => counts.get(name)?.firsts ?? 0;
  const emailsSent = count(EMAIL_EVENTS.sent);
  const opened = firsts(EMAIL_EVENTS.open);
  const clicked = firsts(EMAIL_EVENTS.click);
  return {
    totalEvents: [...counts.values()].reduce((sum, c) => sum + c.count, 0),
    emailsSent,
    delivered: count(EMAIL_EVENTS.delivery),
    opened,
    clicked,
    bounced: count(EMAIL_EVENTS.bounce),
    complained: count(EMAIL_EVENTS.complaint),
    openRate: percent(opened, emailsSent),
    clickRate: percent(clicked, emailsSent),
  };
}
