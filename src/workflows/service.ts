// Workflows and their graphs: create (with its TRIGGER step), change, enable, delete; steps and transitions.
import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import { badRequest, conflict, foundOr404 } from '../errors.js';
import { activeExecutions } from './executions-store.js';
import { assertTransition, graphProblem, splicedTransitions } from './graph.js';
import { loadGraph } from './runner.js';
import { checkStepConfig } from './step-config.js';
import type { AddableStepType } from './step-types.js';
import { assertWebhookTarget, assertWebhookTargets } from './webhook-target.js';
import {
  deleteStepRow,
  deleteTransitionRow,
  deleteWorkflowRow,
  graphOf,
  insertStep,
  insertTransition,
  insertWorkflow,
  updateStep,
  updateWorkflow,
  type Step,
  type Transition,
  type TriggerType,
  type Workflow,
  type WorkflowGraph,
} from './store.js';

export interface WorkflowInput {
  name: string;
  description?: string | null;
  eventName: string;
  allowReentry?: boolean;
}

export interface WorkflowPatch {
  name?: string;
  description?: string | null;
  triggerType?: TriggerType;
  triggerConfig?: { eventName?: string };
  enabled?: boolean;
  allowReentry?: boolean;
}

export interface StepInput {
  type: AddableStepType;
  name: string;
  position?: { x: number; y: number };
  config?: Record<string, unknown>;
}

export type StepPatch = Partial<Omit<StepInput, 'type'>>;

export function getWorkflow(core: Core, projectId: string, id: string): WorkflowGraph {
  return foundOr404(loadGraph(core, projectId, id), 'Workflow');
}

/** Created disabled, triggered by an event, with the TRIGGER step every graph starts from. */
export function createWorkflow(core: Core, projectId: string, input: WorkflowInput): WorkflowGraph {
  return core.bus.tx(() => {
    const now = core.clock.now();
    const workflow: Workflow = {
      id: randomUUID(),
      projectId,
      name: input.name,
      description: input.description ?? null,
      triggerType: 'EVENT',
      eventName: input.eventName,
      enabled: false,
      allowReentry: input.allowReentry ?? false,
      createdAt: now,
      updatedAt: now,
    };
    insertWorkflow(core.db, workflow);
    insertStep(core.db, { id: randomUUID(), workflowId: workflow.id, type: 'TRIGGER', name: 'Trigger', position: { x: 0, y: 0 }, config: {}, createdAt: now, updatedAt: now });
    return graphOf(core.db, workflow);
  });
}

/** An enabled workflow stays runnable: a change that would break its graph is refused with the reason. */
function assertRunnable(core: Core, workflow: Workflow): void {
  if (!workflow.enabled) return;
  const problem = graphProblem(graphOf(core.db, workflow));
  if (problem) throw badRequest(`The workflow cannot be enabled: ${problem}`, 'Fix the graph, or disable the workflow first');
}

/** Runs a change of the graph in one transaction, then checks that an enabled workflow can still run. */
function changeGraph<T>(core: Core, projectId: string, workflowId: string, change: (graph: WorkflowGraph) => T): T {
  return core.bus.tx(() => {
    const graph = getWorkflow(core, projectId, workflowId);
    const result = change(graph);
    assertRunnable(core, graph);
    return result;
  });
}

/** Enabling checks the targets of its WEBHOOK steps first (DNS, outside the transaction); a step added meanwhile was checked when saved. */
export async function patchWorkflow(core: Core, dns: Dns, projectId: string, id: string, patch: WorkflowPatch): Promise<WorkflowGraph> {
  const before = getWorkflow(core, projectId, id);
  if (patch.enabled === true && !before.enabled) await assertWebhookTargets(core, dns, before);
  return core.bus.tx(() => {
    const existing = getWorkflow(core, projectId, id);
    const workflow: Workflow = {
      ...existing,
      name: patch.name ?? existing.name,
      description: patch.description === undefined ? existing.description : patch.description,
      triggerType: patch.triggerType ?? existing.triggerType,
      eventName: patch.triggerConfig?.eventName ?? existing.eventName,
      enabled: patch.enabled ?? existing.enabled,
      allowReentry: patch.allowReentry ?? existing.allowReentry,
      updatedAt: core.clock.now(),
    };
    assertRunnable(core, workflow);
    updateWorkflow(core.db, workflow);
    return getWorkflow(core, projectId, id);
  });
}

/** Refused while executions are running or waiting: cancel them or let them finish first. */
export function deleteWorkflow(core: Core, projectId: string, id: string): void {
  core.bus.tx(() => {
    const graph = getWorkflow(core, projectId, id);
    const active = activeExecutions(core.db, graph.id).length;
    if (active > 0) throw conflict(`The workflow has ${active} active execution${active === 1 ? '' : 's'}`, { activeExecutions: active });
    deleteWorkflowRow(core.db, projectId, id);
  });
}

const stepOf = (graph: WorkflowGraph, stepId: string): Step => foundOr404(graph.steps.find((s) => s.id === stepId), 'Step');

export async function addStep(core: Core, dns: Dns, projectId: string, workflowId: string, input: StepInput): Promise<Step> {
  const config = input.config ?? {};
  checkStepConfig(core, projectId, input.type, config);
  if (input.type === 'WEBHOOK') await assertWebhookTarget(core, dns, config);
  return changeGraph(core, projectId, workflowId, (graph) => {
    const now = core.clock.now();
    const step: Step = { id: randomUUID(), workflowId: graph.id, type: input.type, name: input.name, position: input.position ?? { x: 0, y: 0 }, config, createdAt: now, updatedAt: now };
    insertStep(core.db, step);
    return step;
  });
}

export async function patchStep(core: Core, dns: Dns, projectId: string, workflowId: string, stepId: string, patch: StepPatch): Promise<Step> {
  // a step's type never changes: the one read now is the one changed below
  if (patch.config !== undefined && stepOf(getWorkflow(core, projectId, workflowId), stepId).type === 'WEBHOOK') await assertWebhookTarget(core, dns, patch.config);
  return changeGraph(core, projectId, workflowId, (graph) => {
    const existing = stepOf(graph, stepId);
    if (patch.config !== undefined) {
      if (existing.type === 'TRIGGER') throw badRequest('The TRIGGER step has no config', 'Change the trigger with PATCH /workflows/{id} triggerConfig');
      checkStepConfig(core, projectId, existing.type, patch.config);
    }
    const step: Step = { ...existing, name: patch.name ?? existing.name, position: patch.position ?? existing.position, config: patch.config ?? existing.config, updatedAt: core.clock.now() };
    updateStep(core.db, step);
    return step;
  });
}

/** With `splice`, what led into the step leads to where it led. The TRIGGER step stays. */
export function deleteStep(core: Core, projectId: string, workflowId: string, stepId: string, splice: boolean): void {
  changeGraph(core, projectId, workflowId, (graph) => {
    const step = stepOf(graph, stepId);
    if (step.type === 'TRIGGER') throw badRequest('The TRIGGER step cannot be deleted', 'Delete the workflow instead');
    const rewired = splice ? splicedTransitions(graph, step) : null;
    deleteStepRow(core.db, graph.id, step.id);
    if (rewired?.target) {
      for (const t of rewired.incoming) {
        if (t.fromStepId !== rewired.target) insertTransition(core.db, { ...t, id: randomUUID(), toStepId: rewired.target, createdAt: core.clock.now() });
      }
    }
  });
}

export function addTransition(core: Core, projectId: string, workflowId: string, input: { fromStepId: string; toStepId: string; condition?: { branch?: string } | null }): Transition {
  return changeGraph(core, projectId, workflowId, (graph) => {
    const from = stepOf(graph, input.fromStepId);
    const to = stepOf(graph, input.toStepId);
    const branch = input.condition?.branch ?? null;
    assertTransition(from, to, branch);
    if (graph.transitions.some((t) => t.fromStepId === from.id && t.branch === branch)) {
      throw conflict(branch ? `The step already has a ${branch} transition` : 'The step already has a transition', { fromStepId: from.id, branch });
    }
    const transition: Transition = { id: randomUUID(), workflowId: graph.id, fromStepId: from.id, toStepId: to.id, branch, createdAt: core.clock.now() };
    insertTransition(core.db, transition);
    return transition;
  });
}

export function deleteTransition(core: Core, projectId: string, workflowId: string, transitionId: string): void {
  changeGraph(core, projectId, workflowId, (graph) => {
    if (!deleteTransitionRow(core.db, graph.id, transitionId)) foundOr404(null, 'Transition');
  });
}
