// The filter engine as its users call it: segments, campaign audiences (count, then walk the
// audience in keyset batches by contact id) and workflow CONDITION steps (one contact, in memory).
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { findSegment } from '../segments/store.js';
import { evaluate } from './evaluate.js';
import { planCondition, planFilter, planStored, type SegmentLookup } from './plan.js';
import { dependenciesOf, type Dependencies, type Predicate } from './predicate.js';
import { countMatching, loadContactFacts, pageMatching, walkMatching, whereOf, type MatchingWalk, type Shape } from './sqlite.js';
import type { FilterCondition } from './types.js';
import { readFor, type ReadPurpose } from '../store/reader.js';

/** A checked, planned condition of one project: what every function below takes. */
export interface ContactFilter {
  readonly projectId: string;
  readonly predicate: Predicate;
  readonly dependencies: Dependencies;
}

/** Segments of the project, as memberOfSegment filters resolve them. */
export const segmentLookup =
  (core: Core, projectId: string): SegmentLookup =>
  (id) =>
    findSegment(core.db, projectId, id);

const filterOf = (projectId: string, predicate: Predicate): ContactFilter => ({ projectId, predicate, dependencies: dependenciesOf(predicate) });

/**
 * A FilterCondition from a request: 422 (field errors under `path`, such as `audienceCondition`)
 * unless it is valid, within bounds, and references existing segments without a cycle.
 * `segmentId` names the segment the condition is for, so that reaching it again is a cycle.
 */
export function contactFilter(core: Core, projectId: string, raw: unknown, path: string, segmentId?: string): ContactFilter {
  return filterOf(projectId, planCondition(raw, { segments: segmentLookup(core, projectId), path, ...(segmentId ? { segmentId } : {}) }));
}

/** One filter `{field, operator, value, unit}` from a request (a workflow CONDITION step's config), same rules. */
export function singleFilter(core: Core, projectId: string, raw: unknown, path: string): ContactFilter {
  return filterOf(projectId, planFilter(raw, { segments: segmentLookup(core, projectId), path }));
}

/** A condition stored after it was checked (a segment's, a campaign's audience). */
export function storedFilter(core: Core, projectId: string, condition: FilterCondition): ContactFilter {
  return filterOf(projectId, planStored(condition, { segments: segmentLookup(core, projectId), path: 'condition' }));
}

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
