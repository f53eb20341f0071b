import type { Core } from '../core.js';
import { countEventsNamed } from './store.js';
import type { EventNameUsage, Usages } from '../usage/usages.js';

/** Where the name is referenced, and how many events of the project carry it. */
export function eventUsage(core: Core, usage: Usages, projectId: string, eventName: string): EventNameUsage & { count: number } {
  return { ...usage.events.collect(core, projectId, eventName), count: countEventsNamed(core.db, projectId, eventName) };
}
