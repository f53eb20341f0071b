import type { Core } from '../core.js';

/** Lists of references (`[{id, name}]`, ...) and counts, as usage answers hold them. */
export type UsageShape = Record<string, unknown[] | number>;

/** A resource that references something (a field, an event name, a template) reports its uses. */
export type UsageProvider<U extends UsageShape> = (core: Core, projectId: string, subject: string) => Partial<U>;

export interface UsageRegistry<U extends UsageShape> {
  register(provider: UsageProvider<U>): void;
  /** Every provider's findings together: lists joined, counts added. */
  collect(core: Core, projectId: string, subject: string): U;
}

/**
 * Where a thing is used, without the owner knowing its users: segments, campaigns and workflows
 * plug in as they come, and deletions ask before they act.
 */
export function createUsageRegistry<U extends UsageShape>(empty: () => U): UsageRegistry<U> {
  const providers: UsageProvider<U>[] = [];
  return {
    register: (provider) => void providers.push(provider),
    collect(core, projectId, subject) {
      const usage = empty();
      for (const provider of providers) {
        const found = provider(core, projectId, subject);
        for (const key of Object.keys(found) as (keyof U)[]) {
          const current = usage[key];
          const more = found[key];
          if (Array.isArray(current)) current.push(...(more as unknown[]));
          else usage[key] = ((current as number) + (more as number)) as U[keyof U];
        }
      }
      return usage;
    },
  };
}
