import type { NamedRef } from '../contacts/field-usage.js';
import { createUsageRegistry } from '../usage/registry.js';

export interface WorkflowStepRef {
  workflowId: string;
  stepId: string;
}

export type TemplateUsage = {
  campaigns: NamedRef[];
  workflowSteps: WorkflowStepRef[];
  /** Emails sent from the template, as the sending resource counts them. */
  emailsSent: number;
};

/** Campaigns, workflow steps and sent emails that reference a template. */
export const templateUsages = createUsageRegistry<TemplateUsage>(() => ({ campaigns: [], workflowSteps: [], emailsSent: 0 }));
