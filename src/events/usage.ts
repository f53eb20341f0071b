import type { NamedRef } from '../contacts/field-usage.js';
import type { Ctx } from '../context.js';
import { countEventsNamed } from './store.js';

/** Segment filters, workflow triggers and waits that reference an event name. */
export type EventNameUsage = {
  segments: NamedRef[];
  workflows: NamedRef[];
  campaigns: NamedRef[];
};

/** Where the name is referenced, and how many events of the project carry it. */
export function eventUsage(ctx: Ctx, projectId: string, eventName: string): EventNameUsage & { count: number } {
  return { ...ctx.usage.events.collect(ctx, projectId, eventName), count: countEventsNamed(ctx.db, projectId, eventName) };
}
