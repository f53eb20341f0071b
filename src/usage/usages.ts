// What each registry answers lives here, below the resources that fill and read them.
import type { FieldUsage, NamedRef } from '../contacts/field-usage.js';
import type { FilterCondition } from '../filters/types.js';
import { createUsageRegistry, type UsageRegistry } from './registry.js';

/** Segment filters, workflow triggers and waits that reference an event name. */
export type EventNameUsage = {
  segments: NamedRef[];
  workflows: NamedRef[];
  campaigns: NamedRef[];
};

export interface WorkflowStepRef {
  workflowId: string;
  stepId: string;
}

/** Campaigns and workflow steps that reference a template (what the usage registry collects). */
export type TemplateReferences = {
  campaigns: NamedRef[];
  workflowSteps: WorkflowStepRef[];
};

/** The references, and the emails sent from the template (counted on a reader thread). */
export type TemplateUsage = TemplateReferences & { emailsSent: number };

/**
 * What uses a segment, and keeps it from being deleted: campaigns that still depend on it (the
 * campaigns module reports those it counts active), segments whose conditions name it, workflows.
 */
export type SegmentUsage = {
  campaigns: NamedRef[];
  segments: NamedRef[];
  workflows: NamedRef[];
};

/** A stored condition that names a segment: an edit of that segment must leave it valid. */
export interface ConditionUse {
  /** What holds it, as the keys of SegmentUsage. */
  owner: keyof SegmentUsage;
  id: string;
  name: string;
  /** As its owner plans it (a campaign's audience with its subscription rule, a workflow step's one filter). */
  condition: FilterCondition;
  /** The segment whose own condition this is (reaching it again is a cycle). */
  segmentId?: string;
}

export type SegmentConditions = { conditions: ConditionUse[] };

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
