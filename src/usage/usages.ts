import type { FieldUsage } from '../contacts/field-usage.js';
import type { EventNameUsage } from '../events/usage.js';
import type { TemplateUsage } from '../templates/usage.js';
import { createUsageRegistry, type UsageRegistry } from './registry.js';

/** Where fields, event names and templates are referenced; each resource that references them plugs in (its module's `usage`). */
export interface Usages {
  /** Keyed by the bare data key (no `data.` prefix). */
  fields: UsageRegistry<FieldUsage>;
  events: UsageRegistry<EventNameUsage>;
  templates: UsageRegistry<TemplateUsage>;
}

export function createUsages(): Usages {
  return {
    fields: createUsageRegistry<FieldUsage>(() => ({ segments: [], campaigns: [], workflows: [] })),
    events: createUsageRegistry<EventNameUsage>(() => ({ segments: [], workflows: [], campaigns: [] })),
    templates: createUsageRegistry<TemplateUsage>(() => ({ campaigns: [], workflowSteps: [], emailsSent: 0 })),
  };
}
