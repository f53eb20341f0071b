import type { NamedRef } from '../contacts/field-usage.js';
import type { Ctx } from '../context.js';
import { createUsageRegistry } from '../usage/registry.js';
import { countEventsNamed } from './store.js';

export type EventNameUsage = {
  segments: NamedRef[];
  workflows: NamedRef[];
  campaigns: NamedRef[];
};

/** Segment filters, workflow triggers and waits that reference an event name. */
export const eventUsages = createUsageRegistry<EventNameUsage>(() => ({ segments: [], workflows: [], campaigns: [] }));

/** Where the name is referenced, and how many events of the project carry it. */
export function eventUsage(ctx: Ctx, projectId: string, eventName: string): EventNameUsage & { count: number } {
  return { ...eventUsages.collect(ctx, projectId, eventName), count: countEventsNamed(ctx.db, projectId, eventName) };
}
