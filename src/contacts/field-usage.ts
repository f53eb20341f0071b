import type { Ctx } from '../context.js';

export interface NamedRef {
  id: string;
  name: string;
}

export interface FieldUsage {
  segments: NamedRef[];
  campaigns: NamedRef[];
  workflows: NamedRef[];
}

/** A resource that can reference contact fields (segments, campaigns, workflows) reports its uses here. */
export type FieldUsageProvider = (ctx: Ctx, projectId: string, field: string) => Partial<FieldUsage>;

const providers: FieldUsageProvider[] = [];

export function registerFieldUsage(provider: FieldUsageProvider): void {
  providers.push(provider);
}

/** `field` is the bare key of contact data (no `data.` prefix). */
export function fieldUsage(ctx: Ctx, projectId: string, field: string): FieldUsage {
  const usage: FieldUsage = { segments: [], campaigns: [], workflows: [] };
  for (const provider of providers) {
    const found = provider(ctx, projectId, field);
    usage.segments.push(...(found.segments ?? []));
    usage.campaigns.push(...(found.campaigns ?? []));
    usage.workflows.push(...(found.workflows ?? []));
  }
  return usage;
}

export const isFieldUsed = (u: FieldUsage): boolean => u.segments.length + u.campaigns.length + u.workflows.length > 0;
