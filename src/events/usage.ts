import type { NamedRef } from '../contacts/field-usage.js';
import type { Ctx } from '../context.js';
import { countEventsNamed } from './store.js';

export interface EventNameUsage {
  segments: NamedRef[];
  workflows: NamedRef[];
  campaigns: NamedRef[];
}

/** A resource that can reference an event name (segment filters, workflow triggers and waits) reports its uses here. */
export type EventUsageProvider = (ctx: Ctx, projectId: string, eventName: string) => Partial<EventNameUsage>;

const providers: EventUsageProvider[] = [];

export function registerEventUsage(provider: EventUsageProvider): void {
  providers.push(provider);
}

/** Where the name is referenced, and how many events of the project carry it. */
export function eventUsage(ctx: Ctx, projectId: string, eventName: string): EventNameUsage & { count: number } {
  const usage: EventNameUsage = { segments: [], workflows: [], campaigns: [] };
  for (const provider of providers) {
    const found = provider(ctx, projectId, eventName);
    usage.segments.push(...(found.segments ?? []));
    usage.workflows.push(...(found.workflows ?? []));
    usage.campaigns.push(...(found.campaigns ?? []));
  }
  return { ...usage, count: countEventsNamed(ctx.db, projectId, eventName) };
}
