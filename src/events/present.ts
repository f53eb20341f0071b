import { iso } from '../clock.js';
import { encodeCursor } from '../http/pagination.js';
import type { EventListPage, EventRecord } from './store.js';

/** The Event resource as the API answers it. */
export const presentEvent = (e: EventRecord) => ({
  id: e.id,
  name: e.name,
  contactId: e.contactId,
  emailId: e.emailId,
  data: e.data,
  createdAt: iso(e.createdAt),
});

/** A list page as the API answers it: the cursor is the last event's position, for the page after it. */
export function presentEventPage({ events, hasMore }: EventListPage) {
  const last = events.at(-1);
  return { data: events.map(presentEvent), cursor: hasMore && last ? encodeCursor({ key: last.createdAt, id: String(last.key) }) : null, hasMore };
}
