// Who a campaign goes to, as one FilterCondition for the filter engine: counted when the send is
// accepted, walked by contact id in batches by the fan-out.
import type { Core } from '../core.js';
import { badRequest } from '../errors.js';
import { countFiltered, filterWhere, walkFiltered, type ContactFilter } from '../filters/engine.js';
import { contactFilter, storedFilter } from '../segments/filters.js';
import type { MatchingWalk } from '../filters/sqlite.js';
import type { FilterCondition } from '../filters/types.js';
import { findSegment } from '../segments/store.js';
import { readFor } from '../store/reader.js';
import { tallyAudience, type AudienceType } from './store.js';

export interface Audience {
  projectId: string;
  audienceType: AudienceType;
  segmentId: string | null;
  audienceCondition: unknown;
  /** TRANSACTIONAL campaigns reach unsubscribed contacts too. */
  type: string;
}

const SUBSCRIBED = { field: 'subscribed', operator: 'equals', value: true } as const;
const EVERYONE = { field: 'email', operator: 'exists' } as const;

/** The audience's own condition: everyone, the segment's members, or the caller's filter tree. */
function chosen(a: Audience): FilterCondition | null {
  if (a.audienceType === 'SEGMENT') return { logic: 'AND', groups: [{ filters: [{ field: 'segment', operator: 'memberOfSegment', value: a.segmentId }] }] } as FilterCondition;
  if (a.audienceType === 'FILTERED') return a.audienceCondition as FilterCondition;
  return null;
}

/** The whole condition: the chosen audience, and only subscribed contacts unless the content is TRANSACTIONAL. */
export function audienceCondition(a: Audience): FilterCondition {
  const own = chosen(a);
  const filters = a.type === 'TRANSACTIONAL' ? [EVERYONE] : [SUBSCRIBED];
  return { logic: 'AND', groups: [{ filters, ...(own ? { conditions: own } : {}) }] } as FilterCondition;
}

/** Checks an audience given to the API: the segment exists in the project, the filter tree is one the engine accepts (422). */
export function checkAudience(core: Core, a: Audience): void {
  if (a.audienceType === 'SEGMENT' && !findSegment(core.db, a.projectId, a.segmentId!)) {
    throw badRequest(`No segment ${a.segmentId} in this project`, 'Pass the id of one of your segments (GET /segments)');
  }
  if (a.audienceType === 'FILTERED') contactFilter(core, a.projectId, a.audienceCondition, 'audienceCondition');
}

const filterOf = (core: Core, a: Audience): ContactFilter => storedFilter(core, a.projectId, audienceCondition(a));

/** Counted on a reader thread within a request's budget: a million contacts never stall the API. */
export const countAudience = (core: Core, a: Audience): Promise<number> => countFiltered(core, filterOf(core, a), 'request');

/** The audience in contact-id order, a bounded step at a time on a reader thread, its times those of `now` (the send's start). */
export const audienceWalk = (core: Core, a: Audience, now: number): MatchingWalk => walkFiltered(core, filterOf(core, a), now);

/** Who a send would reach now, and who it leaves out and why (so nobody is skipped unseen). */
export interface AudienceCount {
  /** The contacts the send would mail. */
  recipients: number;
  /** Left out as unsubscribed (none for TRANSACTIONAL campaigns, which reach them). */
  unsubscribed: number;
  /** Left out as suppressed (hard bounce or complaint), of those not left out as unsubscribed. */
  suppressed: number;
  /** Every contact the audience's own condition selects: the three above together. */
  matching: number;
}

/** The audience counted apart on a reader thread within a request's budget (a checked audience: see checkAudience). */
export async function countAudienceParts(core: Core, a: Audience): Promise<AudienceCount> {
  const own = chosen(a) ?? ({ logic: 'AND', groups: [{ filters: [EVERYONE] }] } as FilterCondition);
  const where = filterWhere(storedFilter(core, a.projectId, own), core.clock.now(), 'scan');
  const tally = await tallyAudience(core.reader, readFor(core.config, a.projectId, 'request'), where);
  const reachesUnsubscribed = a.type === 'TRANSACTIONAL';
  const unsubscribed = reachesUnsubscribed ? 0 : tally.unsubscribed;
  const suppressed = reachesUnsubscribed ? tally.suppressed : tally.suppressed - tally.unsubscribedAndSuppressed;
  return { recipients: tally.matching - unsubscribed - suppressed, unsubscribed, suppressed, matching: tally.matching };
}
