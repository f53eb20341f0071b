// The filter engine as its users call it: segments, campaign audiences (count, then walk the
// audience in keyset batches by contact id) and workflow CONDITION steps (one contact, in memory).
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { evaluate } from './evaluate.js';
import { dependenciesOf, type Dependencies, type Predicate } from './predicate.js';
import { countMatching, loadContactFacts, pageMatching, walkMatching, whereOf, type MatchingWalk, type Shape } from './sqlite.js';
import { readFor, type ReadPurpose } from '../store/reader.js';

/** A checked, planned condition of one project: what every function below takes. */
export interface ContactFilter {
  readonly projectId: string;
  readonly predicate: Predicate;
  readonly dependencies: Dependencies;
}

/** A planned predicate of one project as the functions below take it. */
export const filterOf = (projectId: string, predicate: Predicate): ContactFilter => ({ projectId, predicate, dependencies: dependenciesOf(predicate) });

/** Matching contacts of the project, counted now on a reader thread (a count reads every contact), within the budget of `purpose`. */
export function countFiltered(core: Core, filter: ContactFilter, purpose: ReadPurpose): Promise<number> {
  return countMatching(core.reader, readFor(core.config, filter.projectId, purpose), filter.predicate, core.clock.now());
}

/** A page of matching contacts, newest first, read on a reader thread within a request's budget. */
export function pageFiltered(core: Core, filter: ContactFilter, page: { offset: number; limit: number }): Promise<Contact[]> {
  return pageMatching(core.reader, readFor(core.config, filter.projectId, 'request'), filter.predicate, core.clock.now(), page);
}

/**
 * The filter as an SQL test over `contacts c` with its bound values, for a list that pages and
 * sorts its own way (GET /contacts?where=): `seek` for a page, `scan` for its count. The statement
 * that uses it must run on a reader thread (`readerOf`), under a budget.
 */
export function filterWhere(filter: ContactFilter, now: number, shape: Shape): { text: string; params: unknown[] } {
  return whereOf(filter.predicate, { projectId: filter.projectId, now, shape });
}

/**
 * Matching contacts in contact-id order, a bounded step per `next(afterId, limit)` on a reader
 * thread within a job's budget. The times of the condition are those of `now` for the whole walk:
 * one audience, planned once.
 */
export function walkFiltered(core: Core, filter: ContactFilter, now: number): MatchingWalk {
  return walkMatching(core.reader, readFor(core.config, filter.projectId, 'job'), filter.predicate, now);
}

/** Whether one contact of the filter's project matches now (reads its events and static memberships as the filter needs). */
export function matchesContact(core: Core, filter: ContactFilter, contact: Contact): boolean {
  if (contact.projectId !== filter.projectId) return false;
  const facts = loadContactFacts(core.db, filter.projectId, contact, filter.dependencies.eventNames);
  return evaluate(filter.predicate, facts, core.clock.now());
}
