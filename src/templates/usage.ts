import type { NamedRef } from '../contacts/field-usage.js';

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
