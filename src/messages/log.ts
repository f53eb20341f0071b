// The email log as the API answers it: pages of a project's emails, and one email's timeline.
import type { Core } from '../core.js';
import { encodeCursor, type CursorPosition } from '../http/pagination.js';
import { readFor } from '../store/reader.js';
import { presentEvent } from '../events/present.js';
import { eventsOfEmail } from '../events/store.js';
import { iso } from '../clock.js';
import { attemptsOf, emailPageStatement, emailRows, isFiltered, type EmailLogQuery } from '../emails/log-store.js';
import { presentEmail } from '../emails/present.js';
import { toEmail, type Email, type EmailRow } from '../emails/store.js';
import { badRequest } from '../errors.js';

/** A timeline shows at most this many events (an email opened thousands of times keeps its first). */
export const TIMELINE_EVENTS = 500;

/**
 * One page, newest first. The plain log reads `limit` index entries on the main connection; a
 * filtered one may scan the project to fill the page, so it runs on a reader thread within a
 * request's budget.
 */
export async function listEmails(core: Core, projectId: string, q: Omit<EmailLogQuery, 'after' | 'limit'>, page: { limit: number; cursor: CursorPosition | null }) {
  const { cursor } = page;
  if (cursor && typeof cursor.key !== 'number') throw badRequest('Invalid cursor', 'Pass back the cursor of the previous page unchanged');
  const query: EmailLogQuery = { ...q, limit: page.limit + 1, after: cursor ? { key: cursor.key as number, id: cursor.id } : null };
  const statement = emailPageStatement(projectId, query);
  const rows = isFiltered(query)
    ? await core.reader.all<EmailRow>(readFor(core.config, projectId, 'request'), statement.text, statement.params)
    : emailRows(core.db, statement);
  const hasMore = rows.length > page.limit;
  const data = rows.slice(0, page.limit).map(toEmail);
  const last = data[data.length - 1];
  return { data: data.map(presentEmail), cursor: hasMore && last ? encodeCursor({ key: last.createdAt, id: last.id }) : null, hasMore };
}

/** The email with each attempt to hand it over and its events, oldest first. */
export function emailTimeline(core: Core, email: Email) {
  return {
    ...presentEmail(email),
    attempts: attemptsOf(core.db, email.id).map((a) => ({ ...a, at: iso(a.at) })),
    events: eventsOfEmail(core.db, email.projectId, email.id, TIMELINE_EVENTS).map(presentEvent),
  };
}
