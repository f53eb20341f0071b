// What the Segments pages share: the API's Segment, the cache keys of a project's segments, and
// how a refusal to delete one names what uses it.
import { ApiFailure, errorText } from '../api';
import type { FilterCondition } from '../ui/FilterBuilder';

export type SegmentType = 'DYNAMIC' | 'STATIC';

export interface Segment {
  id: string;
  name: string;
  description: string | null;
  type: SegmentType;
  condition: FilterCondition | null;
  trackMembership: boolean;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Every query about the project's segments starts with this key (the filter builder's list of segments too): a change invalidates them all. */
export const segmentsKey = (projectId: string | undefined) => ['segments', projectId] as const;

const USERS = [
  ['segments', 'segment'],
  ['campaigns', 'campaign'],
  ['workflows', 'workflow'],
] as const;

/** The API's 409 for a segment in use, with what uses it by name; any other failure as the API said it. */
export function deleteFailure(err: unknown, name: string): string {
  if (!(err instanceof ApiFailure) || err.status !== 409) return errorText(err);
  const users = USERS.flatMap(([key, word]) => {
    const list = err.details[key];
    return Array.isArray(list) ? list.map((u: { name?: string }) => `${word} "${u.name ?? '?'}"`) : [];
  });
  return `${name} was not deleted: ${err.message}${users.length > 0 ? ` (used by ${users.join(', ')})` : ''}.`;
}
