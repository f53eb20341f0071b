// What the Workflows pages share: the API's workflow, step, transition, execution and step counts,
// the step types and their branches, and the cache keys of a project's workflows.

export const STEP_TYPES = ['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'] as const;
export type AddableStepType = (typeof STEP_TYPES)[number];
export type StepType = 'TRIGGER' | AddableStepType;

/** The names people read for each type. */
export const TYPE_LABELS: Record<StepType, string> = {
  TRIGGER: 'Trigger',
  SEND_EMAIL: 'Send email',
  DELAY: 'Delay',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'Condition',
  WEBHOOK: 'Webhook',
  UPDATE_CONTACT: 'Update contact',
  EXIT: 'Exit',
};

/**
 * The outgoing transitions a step may have, by branch (null: the plain one), as the API allows them:
 * a CONDITION leads on by yes and no only, a WAIT_FOR_EVENT by event, timeout or a plain one, an
 * EXIT nowhere, every other step by one plain transition.
 */
export function branchesOf(type: StepType): (string | null)[] {
  if (type === 'CONDITION') return ['yes', 'no'];
  if (type === 'WAIT_FOR_EVENT') return [null, 'event', 'timeout'];
  if (type === 'EXIT') return [];
  return [null];
}

export interface Step {
  id: string;
  type: StepType;
  name: string;
  position: { x: number; y: number };
  config: Record<string, unknown>;
}

export interface Transition {
  id: string;
  fromStepId: string;
  toStepId: string;
  condition: { branch: string } | null;
}

export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  triggerType: 'EVENT' | 'MANUAL';
  triggerConfig: { eventName: string | null };
  enabled: boolean;
  allowReentry: boolean;
  createdAt: string;
  updatedAt: string;
  steps: Step[];
  transitions: Transition[];
}

export interface WorkflowPage {
  data: Workflow[];
  page: number;
  totalPages: number;
  total: number;
}

export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const isActive = (s: ExecutionStatus) => s === 'RUNNING' || s === 'WAITING';

export interface StepRun {
  seq: number;
  stepId: string;
  stepType: StepType;
  status: 'COMPLETED' | 'FAILED' | 'WAITING';
  output: unknown;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface Execution {
  id: string;
  contactId: string | null;
  status: ExecutionStatus;
  currentStepId: string | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  triggerEvent: { name: string } | null;
  steps?: StepRun[];
}

export interface ExecutionPage {
  data: Execution[];
  page: number;
  totalPages: number;
  total: number;
}

export interface StepCount {
  stepId: string;
  now: number;
  passed: number;
  failed: number;
}

/** Every query about the project's workflows starts with this key: a change invalidates them all. */
export const workflowsKey = (projectId: string | undefined) => ['workflows', projectId] as const;

/** How often the canvas's counts and the executions list ask again while the page is open. */
export const LIVE_MS = 2000;
