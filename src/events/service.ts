import type { StoredEvent } from '../bus/bus.js';
import type { ContactData } from '../contacts/data.js';
import { getContact, upsertContact } from '../contacts/service.js';
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { badRequest } from '../errors.js';
import type { KeyKind } from '../projects/keys.js';
import { eventData } from './data.js';
import { groupCommit } from '../bus/group-commit.js';
import { isReservedEventName, trackedEventName } from '../bus/catalogue.js';
import { countEventsByName, countEventsByNameBetween, deleteEventsNamed, listContactEvents, type EventCursor, type EventListPage, type NameCount } from './store.js';
import { inBatches, WRITE_BATCH } from '../store/batches.js';
import { readFor } from '../store/reader.js';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: ContactData;
}

/**
 * Upserts the contact (new ones subscribed unless `subscribed: false`) and records the event with
 * its data in the same transaction (a group commit). One-off values go to the event, never to the
 * contact. With the public key, `subscribed: true` does not undo an unsubscribe the contact, a
 * bounce or a complaint made: the event is recorded and the subscription stays.
 */
export function trackEvent(core: Core, projectId: string, input: TrackInput, requestedBy: KeyKind): Promise<{ contact: Contact; event: StoredEvent }> {
  const name = trackedEventName(input.event);
  return groupCommit(core.bus)(() => {
    const { email, subscribed, data } = input;
    const { contact } = upsertContact(core, projectId, { email, subscribed, data, requestedBy }, true);
    const event = core.bus.emit({ projectId, name, contactId: contact.id, data: eventData(input.data) });
    return { contact, event };
  });
}

/** A page of a contact's events, newest first (404 for another project's contact). */
export function eventsOfContact(core: Core, projectId: string, contactId: string, limit: number, before: EventCursor | null): EventListPage {
  return listContactEvents(core.db, projectId, getContact(core, projectId, contactId).id, limit, before);
}

/**
 * Deletes every event of the name, a batch at a time with the event loop's turn between (a name
 * can have millions); the service's own names are history and stay. Interrupted, the rest of the
 * events stay: the same DELETE finishes it.
 */
export async function deleteEventName(core: Core, projectId: string, name: string): Promise<{ deleted: number }> {
  if (isReservedEventName(name)) throw badRequest(`"${name}" is an event the service emits and cannot be deleted`, 'Delete events you tracked yourself');
  return { deleted: await inBatches(() => deleteEventsNamed(core.db, projectId, name, WRITE_BATCH)) };
}

/** Events per name, most frequent first: the whole history from the counters, a window of time read on a reader thread. */
export async function eventStats(core: Core, projectId: string, from: number, to: number): Promise<NameCount[]> {
  if (from <= 0 && to >= Number.MAX_SAFE_INTEGER) return countEventsByName(core.db, projectId);
  return countEventsByNameBetween(core.reader, readFor(core.config, projectId, 'request'), from, to);
}
