// Events in the activity feed: every event is an entry of its own name (email.*, contact.*,
// segment.*, custom names). Email records come in through their events (email.sent at acceptance,
// then delivery, opens, clicks, bounces), so they need no source of their own.
import type { ActivityEntry, ActivitySource, ActivitySources } from '../activity/sources.js';
import { eventsPage, eventsPageNamed, eventsPageOfContact, type EventPageQuery, type KeyedEvent } from './store.js';

const toEntry = (e: KeyedEvent): ActivityEntry => ({
  key: e.key,
  id: e.id,
  type: e.name,
  at: e.createdAt,
  contactId: e.contactId,
  metadata: e.emailId && !('emailId' in e.data) ? { emailId: e.emailId, ...e.data } : e.data,
});

const newerFirst = (a: KeyedEvent, b: KeyedEvent) => b.createdAt - a.createdAt || b.key - a.key;

export const eventActivitySource: ActivitySource = {
  name: 'events',
  entries(ctx, query) {
    const page: EventPageQuery = { projectId: query.projectId, limit: query.limit, at: query.before.at, key: query.before.key, from: query.from, to: query.to };
    let events: KeyedEvent[];
    if (query.contactId !== null) events = eventsPageOfContact(ctx.db, page, query.contactId, query.types).rows;
    else if (query.types === null) events = eventsPage(ctx.db, page).rows;
    // one index range per name, merged: each read stops after `limit` rows however rare the name
    else events = query.types.flatMap((name) => eventsPageNamed(ctx.db, page, name).rows).sort(newerFirst).slice(0, query.limit);
    return events.map(toEntry);
  },
};

export function eventActivity(sources: ActivitySources): void {
  sources.register(eventActivitySource);
}
