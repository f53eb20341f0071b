import { iso, isoOrNull } from '../clock.js';
import type { Execution, StepRun } from './executions-store.js';
import type { Step, Transition, WorkflowGraph } from './store.js';


export const presentStep = (s: Step) => ({
  id: s.id,
  workflowId: s.workflowId,
  type: s.type,
  name: s.name,
  position: s.position,
  config: s.config,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const presentTransition = (t: Transition) => ({
  id: t.id,
  workflowId: t.workflowId,
  fromStepId: t.fromStepId,
  toStepId: t.toStepId,
  condition: t.branch ? { branch: t.branch } : null,
  createdAt: iso(t.createdAt),
});

export const presentWorkflow = (w: WorkflowGraph) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  triggerType: w.triggerType,
  triggerConfig: { eventName: w.eventName },
  enabled: w.enabled,
  allowReentry: w.allowReentry,
  projectId: w.projectId,
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
  steps: w.steps.map(presentStep),
  transitions: w.transitions.map(presentTransition),
});

const presentRun = (r: StepRun) => ({
  seq: r.seq,
  stepId: r.stepId,
  stepType: r.stepType,
  status: r.status,
  output: r.output,
  error: r.error,
  startedAt: iso(r.startedAt),
  finishedAt: isoOrNull(r.finishedAt),
});

export const presentExecution = (e: Execution, runs?: StepRun[]) => ({
  id: e.id,
  workflowId: e.workflowId,
  contactId: e.contactId,
  status: e.status,
  currentStepId: e.currentStepId,
  context: e.context,
  triggerEvent: e.triggerEvent ? { id: e.triggerEvent.id, name: e.triggerEvent.name, data: e.triggerEvent.data, createdAt: iso(e.triggerEvent.createdAt) } : null,
  error: e.error,
  startedAt: iso(e.startedAt),
  finishedAt: isoOrNull(e.finishedAt),
  updatedAt: iso(e.updatedAt),
  ...(runs ? { steps: runs.map(presentRun) } : {}),
});
