import type { NamedRef } from '../contacts/field-usage.js';

export interface WorkflowStepRef {
  workflowId: string;
  stepId: string;
}

/** Campaigns, workflow steps and sent emails that reference a template. */
export type TemplateUsage = {
  campaigns: NamedRef[];
  workflowSteps: WorkflowStepRef[];
  /** Emails sent from the template, as the sending resource counts them. */
  emailsSent: number;
};
