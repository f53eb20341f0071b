import type { NamedRef } from '../contacts/field-usage.js';
import type { Ctx } from '../context.js';

export interface WorkflowStepRef {
  workflowId: string;
  stepId: string;
}

export interface TemplateUsage {
  campaigns: NamedRef[];
  workflowSteps: WorkflowStepRef[];
  /** Emails sent from the template, as the sending resource counts them. */
  emailsSent: number;
}

/** A resource that references templates (campaigns, workflow steps, sent emails) reports its uses here. */
export type TemplateUsageProvider = (ctx: Ctx, projectId: string, templateId: string) => Partial<TemplateUsage>;

const providers: TemplateUsageProvider[] = [];

export function registerTemplateUsage(provider: TemplateUsageProvider): void {
  providers.push(provider);
}

export function templateUsage(ctx: Ctx, projectId: string, templateId: string): TemplateUsage {
  const usage: TemplateUsage = { campaigns: [], workflowSteps: [], emailsSent: 0 };
  for (const provider of providers) {
    const found = provider(ctx, projectId, templateId);
    usage.campaigns.push(...(found.campaigns ?? []));
    usage.workflowSteps.push(...(found.workflowSteps ?? []));
    usage.emailsSent += found.emailsSent ?? 0;
  }
  return usage;
}
