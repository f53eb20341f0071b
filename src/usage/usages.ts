import type { FieldUsage } from '../contacts/field-usage.js';
import type { EventNameUsage } from '../events/usage.js';
import type { SegmentConditions, SegmentUsage } from '../segments/usage.js';
import type { TemplateReferences } from '../templates/usage.js';
import { createUsageRegistry, type UsageRegistry } from './registry.js';

/** Where fields, event names, templates and segments are referenced; each resource that references them plugs in (its module's `usage`). */
export interface Usages {
  /** Keyed by the bare data key (no `data.` prefix). */
  fields: UsageRegistry<FieldUsage>;
  events: UsageRegistry<EventNameUsage>;
  templates: UsageRegistry<TemplateReferences>;
  /** Keyed by segment id: a segment in use cannot be deleted. */
  segments: UsageRegistry<SegmentUsage>;
  /** Keyed by segment id: the stored conditions that name the segment, which an edit of it must leave valid. */
  segmentConditions: UsageRegistry<SegmentConditions>;
  /** What holds a campaign: active workflow executions that one of its emails started. */
  campaigns: UsageRegistry<CampaignUsage>;
}

export type CampaignUsage = { activeExecutions: number };

export function createUsages(): Usages {
  return {
    fields: createUsageRegistry<FieldUsage>(() => ({ segments: [], campaigns: [], workflows: [] })),
    events: createUsageRegistry<EventNameUsage>(() => ({ segments: [], workflows: [], campaigns: [] })),
    templates: createUsageRegistry<TemplateReferences>(() => ({ campaigns: [], workflowSteps: [] })),
    segments: createUsageRegistry<SegmentUsage>(() => ({ campaigns: [], segments: [], workflows: [] })),
    segmentConditions: createUsageRegistry<SegmentConditions>(() => ({ conditions: [] })),
    campaigns: createUsageRegistry<CampaignUsage>(() => ({ activeExecutions: 0 })),
  };
}
