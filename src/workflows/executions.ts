// Starting, listing and cancelling executions.
import { randomUUID } from 'node:crypto';
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import { conflict, foundOr404 } from '../errors.js';
import {
  activeExecutions,
  findExecution,
  insertExecution,
  insertStepRun,
  moveExecution,
  ACTIVE_STATUSES,
  hasExecution,
  type Execution,
  type TriggerEvent,
} from './executions-store.js';
import { triggerStep } from './graph.js';
import { advance, queueStep } from './runner.js';
import type { WorkflowGraph } from './store.js';

export type StartRefusal = 'already-entered' | 'already-active';

/**
 * Starts the workflow for the contact, in the caller's transaction: the trigger step's run is
 * recorded and the first step queued. Re-entry: without `allowReentry` a contact enters once, with
 * it once at a time. An event starts a workflow once, however often its reaction runs.
 */
export function startExecution(
  core: Core,
  graph: WorkflowGraph,
  contact: Contact,
  start: { trigger: TriggerEvent | null; context: Record<string, unknown> },
): Execution | StartRefusal {
  return core.bus.tx(() => {
    if (hasExecution(core.db, graph.id, contact.id, graph.allowReentry)) return graph.allowReentry ? 'already-active' : 'already-entered';
    const now = core.clock.now();
    const trigger = triggerStep(graph);
    const execution: Execution = {
      id: randomUUID(),
      workflowId: graph.id,
      projectId: graph.projectId,
      contactId: contact.id,
      status: 'RUNNING',
      triggerEvent: start.trigger,
      campaignId: typeof start.trigger?.data.campaignId === 'string' ? start.trigger.data.campaignId : null,
      context: start.context,
      currentStepId: trigger.id,
      seq: 0,
      waitEventName: null,
      error: null,
      startedAt: now,
      finishedAt: null,
      updatedAt: now,
    };
    if (!insertExecution(core.db, execution)) return 'already-entered';
    insertStepRun(core.db, {
      executionId: execution.id,
      seq: 0,
      stepId: trigger.id,
      stepType: 'TRIGGER',
      status: 'COMPLETED',
      output: start.trigger ? { event: start.trigger.name, eventId: start.trigger.id } : { manual: true },
      error: null,
      startedAt: now,
      finishedAt: now,
    });
    advance(core, graph, execution, ['RUNNING'], null);
    return foundOr404(findExecution(core.db, graph.projectId, execution.id), 'Execution');
  });
}

export function getExecution(core: Core, graph: WorkflowGraph, id: string): Execution {
  const execution = findExecution(core.db, graph.projectId, id);
  return foundOr404(execution?.workflowId === graph.id ? execution : null, 'Execution');
}

/** Cancels a running or waiting execution; one that already ended is 409. */
export function cancelExecution(core: Core, graph: WorkflowGraph, id: string): Execution {
  return core.bus.tx(() => {
    const execution = getExecution(core, graph, id);
    const cancelled = moveExecution(core.db, execution.id, execution.seq, ACTIVE_STATUSES, { status: 'CANCELLED', currentStepId: execution.currentStepId, seq: execution.seq + 1 }, core.clock.now());
    if (!cancelled) throw conflict(`The execution has already ended (${execution.status})`, { status: execution.status });
    return getExecution(core, graph, id);
  });
}

/** Cancels every running or waiting execution of the workflow; answers how many. */
export function cancelAllExecutions(core: Core, graph: WorkflowGraph): number {
  return core.bus.tx(() => {
    const now = core.clock.now();
    return activeExecutions(core.db, graph.id).filter(({ id, seq, currentStepId }) =>
      moveExecution(core.db, id, seq, ACTIVE_STATUSES, { status: 'CANCELLED', currentStepId, seq: seq + 1 }, now),
    ).length;
  });
}

/**
 * Runs a FAILED execution's failed step again (a webhook that was down, a template since fixed):
 * RUNNING at that step under a new number, its job queued, the error cleared. 409 when it did not
 * fail, when the step is no longer in the workflow, or when the contact is in the workflow again.
 */
export function retryExecution(core: Core, graph: WorkflowGraph, id: string): Execution {
  return core.bus.tx(() => {
    const execution = getExecution(core, graph, id);
    if (execution.status !== 'FAILED') throw conflict(`Only a failed execution can be retried (this one is ${execution.status})`, { status: execution.status });
    if (!graph.steps.some((s) => s.id === execution.currentStepId)) {
      throw conflict('The step this execution failed at is no longer in the workflow', { stepId: execution.currentStepId });
    }
    if (execution.contactId && hasExecution(core.db, graph.id, execution.contactId, true)) {
      throw conflict('The contact is in this workflow again: cancel or finish that execution first', { reason: 'already-active' });
    }
    const seq = execution.seq + 1;
    moveExecution(core.db, execution.id, execution.seq, ['FAILED'], { status: 'RUNNING', currentStepId: execution.currentStepId, seq }, core.clock.now());
    queueStep(core, execution, seq);
    return getExecution(core, graph, id);
  });
}
