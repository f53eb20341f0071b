import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { EventName } from '../events/catalogue.js';
import { sql, type Db } from '../store/db.js';

export interface EventInput {
  projectId: string;
  name: EventName;
  contactId?: string | null;
  emailId?: string | null;
  data?: Record<string, unknown>;
  /** Defaults to now; lets a caller stamp several rows with one instant. */
  at?: number;
}

export interface StoredEvent {
  id: string;
  projectId: string;
  name: EventName;
  contactId: string | null;
  emailId: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

export type Subscriber = (event: StoredEvent) => void;

export interface Bus {
  /** Runs fn in one transaction; events emitted inside reach subscribers only after the outermost commit. */
  tx<T>(fn: () => T): T;
  /** Writes the event row in the current transaction (or its own). */
  emit(event: EventInput): StoredEvent;
  subscribe(fn: Subscriber): void;
}

export function createBus(db: Db, clock: Clock, log: Logger): Bus {
  const subscribers: Subscriber[] = [];
  let pending: StoredEvent[] = [];
  let depth = 0;

  const dispatch = (events: StoredEvent[]) => {
    for (const event of events) {
      for (const fn of subscribers) {
        try {
          fn(event);
        } catch (err) {
          log.error('event subscriber failed', { event: event.name, error: (err as Error).stack });
        }
      }
    }
  };

  // One transaction function for every call (nested calls become savepoints).
  const inTransaction = db.transaction((fn: () => unknown) => fn());

  const tx = <T>(fn: () => T): T => {
    depth++;
    const mark = pending.length;
    let result: T;
    try {
      result = inTransaction(fn) as T;
    } catch (err) {
      depth--;
      pending.length = mark; // the rolled-back part never happened
      throw err;
    }
    depth--;
    if (depth === 0 && pending.length > 0) {
      const committed = pending;
      pending = [];
      dispatch(committed);
    }
    return result;
  };

  const insert = (event: StoredEvent) =>
    sql(db, 'INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      event.id,
      event.projectId,
      event.contactId,
      event.emailId,
      event.name,
      JSON.stringify(event.data),
      event.createdAt,
    );

  const emit = (input: EventInput): StoredEvent => {
    if (depth === 0) return tx(() => emit(input));
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
    pending.push(event);
    return event;
  };

  return { tx, emit, subscribe: (fn) => void subscribers.push(fn) };
}
