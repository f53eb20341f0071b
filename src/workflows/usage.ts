// Where workflows reference fields, event names, templates, segments and campaigns: asked before those are deleted.
import type { Core } from '../core.js';
import { EVENT_OPERATORS, MEMBERSHIP_OPERATORS, type Filter, type FilterCondition } from '../filters/types.js';
import type { Usages } from '../usage/usages.js';
import { countActiveForCampaign } from './executions-store.js';
import { projectWorkflows, type Step } from './store.js';

const isOneOf = (operators: readonly string[], operator: unknown) => operators.includes(String(operator));

/** The data keys a step reads or writes (without `data.`). */
function fieldsOf(step: Step): string[] {
  if (step.type === 'CONDITION' && typeof step.config.field === 'string' && step.config.field.startsWith('data.')) return [step.config.field.slice(5).split('.')[0]!];
  if (step.type === 'UPDATE_CONTACT' && step.config.updates && typeof step.config.updates === 'object') return Object.keys(step.config.updates);
  return [];
}

/** The event names a step waits for or tests. */
function eventsOf(step: Step): string[] {
  if (step.type === 'WAIT_FOR_EVENT' && typeof step.config.eventName === 'string') return [step.config.eventName];
  if (step.type === 'CONDITION' && isOneOf(EVENT_OPERATORS, step.config.operator) && typeof step.config.field === 'string') return [step.config.field];
  return [];
}

/** Whether a CONDITION step tests membership of the segment. */
const testsMembershipOf = (step: Step, segmentId: string) =>
  step.type === 'CONDITION' && isOneOf(MEMBERSHIP_OPERATORS, step.config.operator) && step.config.value === segmentId;

const using = (core: Core, projectId: string, uses: (step: Step, trigger: string | null) => boolean) =>
  projectWorkflows(core.db, projectId)
    .filter((w) => w.steps.some((s) => uses(s, w.triggerType === 'EVENT' ? w.eventName : null)))
    .map((w) => ({ id: w.id, name: w.name }));

export function workflowUsage(usages: Usages): void {
  usages.fields.register((core, projectId, key) => ({ workflows: using(core, projectId, (s) => fieldsOf(s).includes(key)) }));
  usages.events.register((core, projectId, name) => ({ workflows: using(core, projectId, (s, trigger) => trigger === name || eventsOf(s).includes(name)) }));
  usages.templates.register((core, projectId, templateId) => ({
    workflowSteps: projectWorkflows(core.db, projectId).flatMap((w) =>
      w.steps.filter((s) => s.type === 'SEND_EMAIL' && s.config.templateId === templateId).map((s) => ({ workflowId: w.id, stepId: s.id })),
    ),
  }));
  usages.segments.register((core, projectId, segmentId) => ({ workflows: using(core, projectId, (s) => testsMembershipOf(s, segmentId)) }));
  usages.segmentConditions.register((core, projectId, segmentId) => ({
    conditions: projectWorkflows(core.db, projectId).flatMap((w) =>
      w.steps
        .filter((s) => testsMembershipOf(s, segmentId))
        .map((s) => ({ owner: 'workflows' as const, id: w.id, name: w.name, condition: { logic: 'AND', groups: [{ filters: [s.config as unknown as Filter] }] } as FilterCondition })),
    ),
  }));
  usages.campaigns.register((core, _projectId, campaignId) => ({ activeExecutions: countActiveForCampaign(core.db, campaignId) }));
}
