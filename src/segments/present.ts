import { iso } from '../clock.js';
import type { Segment } from './store.js';

/** The Segment resource as the API answers it: exactly the spec's fields. */
export const presentSegment = (s: Segment) => ({
  id: s.id,
  name: s.name,
  description: s.description,
  type: s.type,
  condition: s.condition,
  trackMembership: s.trackMembership,
  memberCount: s.memberCount,
  projectId: s.projectId,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});
