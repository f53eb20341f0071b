// Reactors: code that must run because something happened (segment membership tracking, workflow
// triggers). A reactor is called synchronously inside the transaction that wrote the event or the
// contact, and records its work there (a job row), so the reaction commits or rolls back with its
// cause: a crash after the commit loses nothing, the job runs after the next start. A reactor
// should first ask something cheap and in memory (src/store/table-memo.ts) and write nothing when
// nobody cares: it runs on every emit, /v1/track and /v1/send included. A reactor that throws
// fails its cause's transaction.
import type { EventName } from './catalogue.js';

/** A stored event as reactors see it. */
export interface StoredEvent {
  id: string;
  projectId: string;
  name: EventName;
  contactId: string | null;
  emailId: string | null;
  data: Record<string, unknown>;
  createdAt: number;
}

/** A contact row written: created, updated (data, email, subscription) or deleted, whether or not an event says so. */
export interface ContactChange {
  projectId: string;
  contactId: string;
  change: 'created' | 'updated' | 'deleted';
}

export interface Reactor {
  /** Names it in logs. */
  name: string;
  /** Event names it reacts to, or every event; none when omitted. */
  events?: readonly EventName[] | 'all';
  /** Inside the transaction that wrote `event`. */
  onEvent?(event: StoredEvent): void;
  /** Inside the transaction that wrote the contact. */
  onContactChange?(change: ContactChange): void;
}

/** A prefix of every reactor job kind (the reactor lag of /metrics is the oldest queued job of these kinds). */
export const REACTOR_JOB_PREFIX = 'reactor.';
