// Workflows and their graphs: create (with its TRIGGER step), change, enable, delete; steps and transitions.
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { badRequest, conflict, foundOr404 } from '../errors.js';
import { activeExecutions } from './executions-store.js';
import { assertTransition, graphProblem, splicedTransitions } from './graph.js';
import { loadGraph } from './runner.js';
import { checkStepConfig } from './step-config.js';
import type { AddableStepType } from './step-types.js';
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

export function getWorkflow(ctx: Ctx, projectId: string, id: string): WorkflowGraph {
  return foundOr404(loadGraph(ctx, projectId, id), 'Workflow');
}

/** Created disabled, triggered by an event, with the TRIGGER step every graph starts from. */
export function createWorkflow(ctx: Ctx, projectId: string, input: WorkflowInput): WorkflowGraph {
  return ctx.bus.tx(() => {
    const now = ctx.clock.now();
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
    insertWorkflow(ctx.db, workflow);
    insertStep(ctx.db, { id: randomUUID(), workflowId: workflow.id, type: 'TRIGGER', name: 'Trigger', position: { x: 0, y: 0 }, config: {}, createdAt: now, updatedAt: now });
    return graphOf(ctx.db, workflow);
  });
}

/** An enabled workflow stays runnable: a change that would break its graph is refused with the reason. */
function assertRunnable(ctx: Ctx, workflow: Workflow): void {
  if (!workflow.enabled) return;
  const problem = graphProblem(graphOf(ctx.db, workflow));
  if (problem) throw badRequest(`The workflow cannot be enabled: ${problem}`, 'Fix the graph, or disable the workflow first');
}

/** Runs a change of the graph in one transaction, then checks that an enabled workflow can still run. */
function changeGraph<T>(ctx: Ctx, projectId: string, workflowId: string, change: (graph: WorkflowGraph) => T): T {
  return ctx.bus.tx(() => {
    const graph = getWorkflow(ctx, projectId, workflowId);
    const result = change(graph);
    assertRunnable(ctx, graph);
    return result;
  });
}

export function patchWorkflow(ctx: Ctx, projectId: string, id: string, patch: WorkflowPatch): WorkflowGraph {
  return ctx.bus.tx(() => {
    const existing = getWorkflow(ctx, projectId, id);
    const workflow: Workflow = {
      ...existing,
      name: patch.name ?? existing.name,
      description: patch.description === undefined ? existing.description : patch.description,
      triggerType: patch.triggerType ?? existing.triggerType,
      eventName: patch.triggerConfig?.eventName ?? existing.eventName,
      enabled: patch.enabled ?? existing.enabled,
      allowReentry: patch.allowReentry ?? existing.allowReentry,
      updatedAt: ctx.clock.now(),
    };
    assertRunnable(ctx, workflow);
    updateWorkflow(ctx.db, workflow);
    return getWorkflow(ctx, projectId, id);
  });
}

/** Refused while executions are running or waiting: cancel them or let them finish first. */
export function deleteWorkflow(ctx: Ctx, projectId: string, id: string): void {
  ctx.bus.tx(() => {
    const graph = getWorkflow(ctx, projectId, id);
    const active = activeExecutions(ctx.db, graph.id).length;
    if (active > 0) throw conflict(`The workflow has ${active} active execution${active === 1 ? '' : 's'}`, { activeExecutions: active });
    deleteWorkflowRow(ctx.db, projectId, id);
  });
}

const stepOf = (graph: WorkflowGraph, stepId: string): Step => foundOr404(graph.steps.find((s) => s.id === stepId), 'Step');

export function addStep(ctx: Ctx, projectId: string, workflowId: string, input: StepInput): Step {
  const config = input.config ?? {};
  checkStepConfig(ctx, projectId, input.type, config);
  return changeGraph(ctx, projectId, workflowId, (graph) => {
    const now = ctx.clock.now();
    const step: Step = { id: randomUUID(), workflowId: graph.id, type: input.type, name: input.name, position: input.position ?? { x: 0, y: 0 }, config, createdAt: now, updatedAt: now };
    insertStep(ctx.db, step);
    return step;
  });
}

export function patchStep(ctx: Ctx, projectId: string, workflowId: string, stepId: string, patch: StepPatch): Step {
  return changeGraph(ctx, projectId, workflowId, (graph) => {
    const existing = stepOf(graph, stepId);
    if (patch.config !== undefined) {
      if (existing.type === 'TRIGGER') throw badRequest('The TRIGGER step has no config', 'Change the trigger with PATCH /workflows/{id} triggerConfig');
      checkStepConfig(ctx, projectId, existing.type, patch.config);
    }
    const step: Step = { ...existing, name: patch.name ?? existing.name, position: patch.position ?? existing.position, config: patch.config ?? existing.config, updatedAt: ctx.clock.now() };
    updateStep(ctx.db, step);
    return step;
  });
}

/** With `splice`, what led into the step leads to where it led. The TRIGGER step stays. */
export function deleteStep(ctx: Ctx, projectId: string, workflowId: string, stepId: string, splice: boolean): void {
  changeGraph(ctx, projectId, workflowId, (graph) => {
    const step = stepOf(graph, stepId);
    if (step.type === 'TRIGGER') throw badRequest('The TRIGGER step cannot be deleted', 'Delete the workflow instead');
    const rewired = splice ? splicedTransitions(graph, step) : null;
    deleteStepRow(ctx.db, graph.id, step.id);
    if (rewired?.target) {
      for (const t of rewired.incoming) {
        if (t.fromStepId !== rewired.target) insertTransition(ctx.db, { ...t, id: randomUUID(), toStepId: rewired.target, createdAt: ctx.clock.now() });
      }
    }
  });
}

export function addTransition(ctx: Ctx, projectId: string, workflowId: string, input: { fromStepId: string; toStepId: string; condition?: { branch?: string } | null }): Transition {
  return changeGraph(ctx, projectId, workflowId, (graph) => {
    const from = stepOf(graph, input.fromStepId);
    const to = stepOf(graph, input.toStepId);
    const branch = input.condition?.branch ?? null;
    assertTransition(from, to, branch);
    if (graph.transitions.some((t) => t.fromStepId === from.id && t.branch === branch)) {
      throw conflict(branch ? `The step already has a ${branch} transition` : 'The step already has a transition', { fromStepId: from.id, branch });
    }
    const transition: Transition = { id: randomUUID(), workflowId: graph.id, fromStepId: from.id, toStepId: to.id, branch, createdAt: ctx.clock.now() };
    insertTransition(ctx.db, transition);
    return transition;
  });
}

export function deleteTransition(ctx: Ctx, projectId: string, workflowId: string, transitionId: string): void {
  changeGraph(ctx, projectId, workflowId, (graph) => {
    if (!deleteTransitionRow(ctx.db, graph.id, transitionId)) foundOr404(null, 'Transition');
  });
}
