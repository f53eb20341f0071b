// Where campaigns reference segments, data fields and event names (through their audiences).
import type { Core } from '../core.js';
import type { ContactFilter } from '../filters/engine.js';
import { storedFilter } from '../segments/filters.js';
import { referencedSegments, type FilterCondition } from '../filters/types.js';
import type { Usages } from '../usage/usages.js';
import { audienceCondition } from './audience.js';
import { campaignsIn, type Campaign, type CampaignStatus } from './store.js';

/** Campaigns that still depend on their audience: a segment or field they use cannot go. */
const ACTIVE: readonly CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING'];

const named = (list: Campaign[]) => list.map((c) => ({ id: c.id, name: c.name }));

/** The audience filter of a FILTERED campaign; null for the others, and for one whose segments are gone (it cannot send anyway). */
function filterOf(core: Core, c: Campaign): ContactFilter | null {
  if (c.audienceType !== 'FILTERED') return null;
  try {
    return storedFilter(core, c.projectId, c.audienceCondition as FilterCondition);
  } catch (err) {
    core.log.debug('campaign audience filter not readable: it references nothing', { campaignId: c.id, error: String(err) });
    return null;
  }
}

export function campaignUsage(usages: Usages): void {
  // A segment is held by campaigns about to send to it (SCHEDULED or SENDING), as the spec's 409 says.
  usages.segments.register((core, projectId, segmentId) => ({
    campaigns: named(
      campaignsIn(core.db, projectId, ['SCHEDULED', 'SENDING']).filter(
        (c) => c.segmentId === segmentId || (c.audienceType === 'FILTERED' && referencedSegments(c.audienceCondition as FilterCondition).has(segmentId)),
      ),
    ),
  }));
  // An edit of a segment must leave every audience that may still be planned valid: drafts too.
  usages.segmentConditions.register((core, projectId, segmentId) => ({
    conditions: campaignsIn(core.db, projectId, ACTIVE)
      .map((c) => ({ c, condition: audienceCondition(c) }))
      .filter(({ condition }) => referencedSegments(condition).has(segmentId))
      .map(({ c, condition }) => ({ owner: 'campaigns' as const, id: c.id, name: c.name, condition })),
  }));
  usages.fields.register((core, projectId, key) => ({
    campaigns: named(campaignsIn(core.db, projectId, ACTIVE).filter((c) => filterOf(core, c)?.dependencies.dataKeys.has(key) ?? false)),
  }));
  usages.events.register((core, projectId, name) => ({
    campaigns: named(campaignsIn(core.db, projectId, ACTIVE).filter((c) => filterOf(core, c)?.dependencies.eventNames.has(name) ?? false)),
  }));
}
