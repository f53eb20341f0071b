import { randomUUID } from 'node:crypto';
import { upsertContact } from '../contacts/service.js';
import { countContacts, findContactsByEmails, type Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { countFiltered, pageFiltered } from '../filters/engine.js';
import { contactFilter } from './filters.js';
import type { FilterCondition } from '../filters/types.js';
import { plannedSegment, projectSegments } from './catalog.js';
import { refreshCount } from './counts.js';
import { assertReadersStayValid } from './references.js';
import { readFor } from '../store/reader.js';
import { queueReevaluation, queueSegmentCount } from './jobs.js';
import { computeMembership, emitTransitions, type ComputeResult } from './membership.js';
import {
  clearMembers,
  countMembers,
  deleteMembers,
  deleteSegmentRow,
  findSegment,
  insertMembers,
  insertSegment,
  listSegments as listSegmentRows,
  pageMembers,
  updateSegment,
  type Segment,
  type SegmentType,
} from './store.js';
import { isSegmentUsed } from './usage.js';
import type { Usages } from '../usage/usages.js';

export interface SegmentInput {
  name: string;
  description?: string | null;
  type?: SegmentType;
  /** A FilterCondition, checked by the filter engine; ignored for STATIC. */
  condition?: unknown;
  trackMembership?: boolean;
}

export interface SegmentPatch {
  name?: string;
  description?: string | null;
  condition?: unknown;
  trackMembership?: boolean;
}

/** Lower-case, every run of other than a-z and 0-9 one dash, no dash at either end; names its events. */
export function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'segment'
  );
}

/** The condition, once the filter engine accepts it for this segment (422 otherwise, cycles included). */
function checkedCondition(core: Core, projectId: string, raw: unknown, segmentId: string): FilterCondition {
  contactFilter(core, projectId, raw, 'condition', segmentId);
  return raw as FilterCondition;
}

export function listSegments(core: Core, projectId: string): Segment[] {
  return listSegmentRows(core.db, projectId);
}

export function getSegment(core: Core, projectId: string, id: string): Segment {
  const segment = findSegment(core.db, projectId, id);
  if (!segment) throw notFound('Segment');
  return segment;
}

export function createSegment(core: Core, projectId: string, input: SegmentInput): Segment {
  return core.bus.tx(() => {
    const now = core.clock.now();
    const id = randomUUID();
    const type = input.type ?? 'DYNAMIC';
    const segment: Segment = {
      id,
      projectId,
      name: input.name,
      slug: slugOf(input.name),
      description: input.description ?? null,
      type,
      condition: type === 'DYNAMIC' ? checkedCondition(core, projectId, input.condition, id) : null,
      trackMembership: input.trackMembership ?? false,
      memberCount: 0,
      countedAt: null,
      countMs: 0,
      createdAt: now,
      updatedAt: now,
    };
    insertSegment(core.db, segment);
    if (type === 'DYNAMIC') queueSegmentCount(core, projectId, id);
    return segment;
  });
}

/**
 * Creates the segment, then counts its members on a reader thread within a request's budget, so
 * the answer carries the count. Past the budget the count job that creation queued counts it
 * later: the segment is answered with memberCount 0 and `counted: false`.
 */
export async function createCountedSegment(core: Core, projectId: string, input: SegmentInput): Promise<{ segment: Segment; counted: boolean }> {
  const segment = createSegment(core, projectId, input);
  // a new static segment has no members yet: 0 is its count
  if (segment.type === 'STATIC') return { segment, counted: true };
  try {
    return { segment: { ...segment, memberCount: await refreshCount(core, segment, 'request') }, counted: true };
  } catch (err) {
    // past the budget (422 QUERY_TIMEOUT) or with the project's reads all taken (429): the
    // segment exists already, and the queued job counts it
    if (!(err instanceof ApiError)) throw err;
    return { segment, counted: false };
  }
}

/**
 * Name, description, condition (dynamic segments only) and trackMembership. A dynamic segment that
 * stops tracking forgets its recorded membership (a later start records it anew). A condition that
 * would leave a condition reading this segment invalid is refused (409, references.ts).
 */
export function patchSegment(core: Core, usage: Usages, projectId: string, id: string, patch: SegmentPatch): Segment {
  return core.bus.tx(() => {
    const existing = getSegment(core, projectId, id);
    if (patch.condition !== undefined && existing.type === 'STATIC') {
      throw badRequest('A static segment has no condition', 'Add and remove its members with /segments/{id}/members');
    }
    const segment: Segment = {
      ...existing,
      name: patch.name ?? existing.name,
      slug: slugOf(patch.name ?? existing.name),
      description: patch.description === undefined ? existing.description : patch.description,
      condition: patch.condition === undefined ? existing.condition : checkedCondition(core, projectId, patch.condition, id),
      trackMembership: patch.trackMembership ?? existing.trackMembership,
      updatedAt: core.clock.now(),
    };
    if (patch.condition !== undefined) assertReadersStayValid(core, usage, existing, segment);
    updateSegment(core.db, segment);
    if (existing.type === 'DYNAMIC' && existing.trackMembership && !segment.trackMembership) clearMembers(core.db, projectId, id);
    if (patch.condition !== undefined) queueSegmentCount(core, projectId, id);
    return segment;
  });
}

/** Refused while an active campaign, another segment or a workflow uses it. */
export function deleteSegment(core: Core, usages: Usages, projectId: string, id: string): void {
  core.bus.tx(() => {
    getSegment(core, projectId, id);
    const usage = usages.segments.collect(core, projectId, id);
    if (isSegmentUsed(usage)) {
      throw new ApiError(409, 'CONFLICT', 'The segment is in use', {
        details: { ...usage },
        suggestion: 'Finish or change the campaigns, segments and workflows that use it first',
      });
    }
    deleteSegmentRow(core.db, projectId, id);
  });
}

/** Projects up to this many contacts get exact page totals; larger ones the cached memberCount, so that a page never waits for a count. */
const LIVE_TOTAL_UP_TO = 100_000;

/** A page of the segment's contacts (live for a dynamic segment), newest first, with the total. */
export async function segmentContacts(core: Core, projectId: string, id: string, page: { offset: number; limit: number }): Promise<{ contacts: Contact[]; total: number }> {
  const segment = getSegment(core, projectId, id);
  const live = countContacts(core.db, projectId) <= LIVE_TOTAL_UP_TO;
  // both on the reader threads, within a request's budget; they take the project's turns one after the other
  if (segment.type === 'STATIC') {
    const read = readFor(core.config, projectId, 'request');
    const [contacts, total] = await Promise.all([pageMembers(core.reader, read, id, page), live ? countMembers(core.reader, read, id) : segment.memberCount]);
    return { contacts, total };
  }
  const { filter } = plannedSegment(core, segment);
  if (!filter) return { contacts: [], total: 0 };
  const [contacts, total] = await Promise.all([pageFiltered(core, filter, page), live ? countFiltered(core, filter, 'request') : segment.memberCount]);
  return { contacts, total };
}

export interface MembersInput {
  emails: string[];
  /** Creates contacts for unknown emails (subscribed as `subscribed` says, default true). */
  createMissing?: boolean;
  subscribed?: boolean;
}

function staticSegment(core: Core, projectId: string, id: string): Segment {
  const segment = getSegment(core, projectId, id);
  if (segment.type !== 'STATIC') throw badRequest('The members of a dynamic segment follow its condition', 'Change the condition, or use a STATIC segment');
  return segment;
}

const uniqueEmails = (emails: string[]) => [...new Map(emails.map((e) => [e.toLowerCase(), e])).values()];

/** Member rows changed: entry or exit events when the segment tracks, and re-evaluation of tracked segments that read its members. */
function membersChanged(core: Core, segment: Segment, contactIds: string[], kind: 'entry' | 'exit'): void {
  emitTransitions(core, segment, contactIds, kind);
  if (projectSegments(core, segment.projectId).trackedStatics.has(segment.id)) queueReevaluation(core, segment.projectId, contactIds);
  if (contactIds.length > 0) queueSegmentCount(core, segment.projectId, segment.id);
}

export function addMembers(core: Core, projectId: string, id: string, input: MembersInput): { added: number; created: number; notFound: string[] } {
  return core.bus.tx(() => {
    const segment = staticSegment(core, projectId, id);
    const emails = uniqueEmails(input.emails);
    const found = findContactsByEmails(core.db, projectId, emails);
    const known = new Set(found.map((c) => c.email.toLowerCase()));
    const missing = emails.filter((e) => !known.has(e.toLowerCase()));
    const ids = found.map((c) => c.id);
    if (input.createMissing) {
      for (const email of missing) ids.push(upsertContact(core, projectId, { email, subscribed: input.subscribed }, true).contact.id);
    }
    const added = insertMembers(core.db, projectId, id, ids, core.clock.now());
    membersChanged(core, segment, added, 'entry');
    return { added: added.length, created: input.createMissing ? missing.length : 0, notFound: input.createMissing ? [] : missing };
  });
}

export function removeMembers(core: Core, projectId: string, id: string, emails: string[]): { removed: number } {
  return core.bus.tx(() => {
    const segment = staticSegment(core, projectId, id);
    const ids = findContactsByEmails(core.db, projectId, uniqueEmails(emails)).map((c) => c.id);
    const removed = deleteMembers(core.db, projectId, id, ids);
    membersChanged(core, segment, removed, 'exit');
    return { removed: removed.length };
  });
}

/** Records the membership of a tracked dynamic segment now, with entry and exit events for what changed. */
export function computeSegment(core: Core, projectId: string, id: string): Promise<ComputeResult> {
  const segment = getSegment(core, projectId, id);
  const { filter } = plannedSegment(core, segment);
  if (segment.type !== 'DYNAMIC' || !segment.trackMembership || !filter) {
    throw badRequest('Compute records the membership of a dynamic segment with trackMembership', 'Set trackMembership: true first; POST /segments/{id}/refresh counts any segment');
  }
  return computeMembership(core, segment, filter);
}

/** Counts now and caches the count: no events, no membership writes. */
export async function refreshSegment(core: Core, projectId: string, id: string): Promise<{ memberCount: number }> {
  return { memberCount: await refreshCount(core, getSegment(core, projectId, id), 'request') };
}
