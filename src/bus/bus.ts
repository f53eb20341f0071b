import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { EventName } from './catalogue.js';
import type { Logger } from '../log.js';
import type { Db } from '../store/db.js';
import { insertEvent } from './store.js';
import type { ContactChange, Reactor, StoredEvent } from './reactor.js';

export type { StoredEvent } from './reactor.js';

export interface EventInput {
  projectId: string;
  name: EventName;
  contactId?: string | null;
  emailId?: string | null;
  data?: Record<string, unknown>;
  /** Defaults to now; lets a caller stamp several rows with one instant. */
  at?: number;
}

export interface Bus {
  /** Runs fn in one transaction (nested calls become savepoints). */
  tx<T>(fn: () => T): T;
  /** Writes the event row, and the work of every reactor that listens to it, in the current transaction (or its own). */
  emit(event: EventInput): StoredEvent;
  /** Tells the reactors of a contact write, in the current transaction (or its own); the contacts service calls it on every write. */
  contactChanged(change: ContactChange): void;
  /** Registers a reactor (at start, before any work). */
  react(reactor: Reactor): void;
}

export function createBus(db: Db, clock: Clock, log: Logger): Bus {
  const reactorsOf = new Map<string, Reactor[]>();
  const ofEveryEvent: Reactor[] = [];
  const ofContacts: Reactor[] = [];

  // One transaction function for every call (nested calls become savepoints).
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  const tx = <T>(fn: () => T): T => inTransaction(fn) as T;

  const insert = (event: StoredEvent) => insertEvent(db, event);

  const emit = (input: EventInput): StoredEvent => {
    if (!db.inTransaction) return tx(() => emit(input));
    const event: StoredEvent = {
      id: randomUUID(),
      projectId: input.projectId,
      name: input.name,
      contactId: input.contactId ?? null,
      emailId: input.emailId ?? null,
      data: input.data ?? {},
      createdAt: input.at ?? clock.now(),
    };
    insert(event);
    for (const reactor of reactorsOf.get(event.name) ?? ofEveryEvent) {
      try {
        reactor.onEvent!(event);
      } catch (err) {
        throw failed(reactor, event.name, err);
      }
    }
    return event;
  };

  const contactChanged = (change: ContactChange): void => {
    if (!db.inTransaction) return tx(() => contactChanged(change));
    for (const reactor of ofContacts) {
      try {
        reactor.onContactChange!(change);
      } catch (err) {
        throw failed(reactor, `contact ${change.change}`, err);
      }
    }
  };

  /** A reactor that cannot record its work fails its cause: said here, with the reactor's name, before the caller sees the error. */
  const failed = (reactor: Reactor, cause: string, err: unknown): unknown => {
    log.error('reactor failed; its cause is rolled back', { reactor: reactor.name, cause, error: (err as Error).stack });
    return err;
  };

  // Each listened-to name keeps its full list (its own reactors and those of every event), so an
  // emit walks one list and allocates nothing.
  const react = (reactor: Reactor): void => {
    if (reactor.onEvent && reactor.events === 'all') {
      ofEveryEvent.push(reactor);
      for (const list of reactorsOf.values()) list.push(reactor);
    } else if (reactor.onEvent && reactor.events) {
      for (const name of reactor.events) reactorsOf.set(name, [...(reactorsOf.get(name) ?? ofEveryEvent), reactor]);
    }
    if (reactor.onContactChange) ofContacts.push(reactor);
  };

  return { tx, emit, contactChanged, react };
}
