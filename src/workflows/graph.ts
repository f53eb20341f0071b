// The rules of a workflow's graph: which transitions may exist, when it can run, where a step leads.
import { badRequest } from '../errors.js';
import { BRANCHES, REQUIRED_BRANCHES } from './step-types.js';
import type { Step, Transition, WorkflowGraph } from './store.js';

/** A transition from `from` to `to` on `branch`: the 400 of the first rule it breaks. */
export function assertTransition(from: Step, to: Step, branch: string | null): void {
  if (from.id === to.id) throw badRequest('A step cannot lead to itself');
  if (to.type === 'TRIGGER') throw badRequest('Nothing leads to the TRIGGER step: it starts the workflow');
  if (from.type === 'EXIT') throw badRequest('An EXIT step ends the execution: it has no outgoing transitions');
  const allowed = BRANCHES[from.type] ?? [];
  if (branch !== null && !allowed.includes(branch)) {
    throw badRequest(
      allowed.length > 0 ? `A ${from.type} step's branches are ${allowed.join(' and ')}` : `A ${from.type} step has no branches`,
      allowed.length > 0 ? `Pass condition: {branch: "${allowed[0]}"}` : 'Leave out condition',
    );
  }
  if (branch === null && from.type === 'CONDITION') throw badRequest('A CONDITION step leads on by its yes and no branches', 'Pass condition: {branch: "yes"} or {branch: "no"}');
}

/** The step an execution goes to after `stepId` took `branch`: that branch's transition, else the plain one. */
export function nextStep(graph: WorkflowGraph, stepId: string, branch: string | null): Step | null {
  const from = graph.transitions.filter((t) => t.fromStepId === stepId);
  const taken = (branch !== null ? from.find((t) => t.branch === branch) : undefined) ?? from.find((t) => t.branch === null);
  return taken ? (graph.steps.find((s) => s.id === taken.toStepId) ?? null) : null;
}

export const triggerStep = (graph: WorkflowGraph): Step => graph.steps.find((s) => s.type === 'TRIGGER')!;

/** Why the workflow cannot run as it is, or null: the trigger leads somewhere, every step is reachable, required branches exist. */
export function graphProblem(graph: WorkflowGraph): string | null {
  if (graph.triggerType === 'EVENT' && !graph.eventName) return 'An EVENT workflow needs triggerConfig.eventName';
  const trigger = triggerStep(graph);
  const reached = new Set([trigger.id]);
  const queue = [trigger.id];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const t of graph.transitions.filter((x) => x.fromStepId === id && !reached.has(x.toStepId))) {
      reached.add(t.toStepId);
      queue.push(t.toStepId);
    }
  }
  if (reached.size === 1) return 'The TRIGGER step leads nowhere: add a step and a transition from the trigger to it';
  const unreachable = graph.steps.filter((s) => !reached.has(s.id));
  if (unreachable.length > 0) return `Step${unreachable.length > 1 ? 's' : ''} ${unreachable.map((s) => `"${s.name}"`).join(', ')} cannot be reached from the trigger`;
  for (const step of graph.steps) {
    const missing = (REQUIRED_BRANCHES[step.type] ?? []).filter((b) => !graph.transitions.some((t) => t.fromStepId === step.id && t.branch === b));
    if (missing.length > 0) return `The ${step.type} step "${step.name}" has no ${missing.join(' or ')} branch`;
  }
  return null;
}

/**
 * Deleting a step with splice: what leads into it then leads to where it led. Answers the
 * re-pointed transitions; a step with branches cannot be spliced out (where would they go?).
 */
export function splicedTransitions(graph: WorkflowGraph, step: Step): { incoming: Transition[]; target: string | null } {
  const outgoing = graph.transitions.filter((t) => t.fromStepId === step.id);
  if (outgoing.length > 1) throw badRequest(`The ${step.type} step "${step.name}" has several branches and cannot be spliced out`, 'Delete it without splice=true');
  const incoming = graph.transitions.filter((t) => t.toStepId === step.id);
  return { incoming, target: outgoing[0]?.toStepId ?? null };
}
