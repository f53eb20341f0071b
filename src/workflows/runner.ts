// Executions move one step at a time. Each step runs as a durable job for the execution's current
// step number (`seq`); its outcome is written in one transaction that moves the execution on only if
// it is still at that number (compare and set), records the step's run, applies the step's effect and
// queues the next job. A job that runs twice, an event racing a timeout, a cancel: one of them wins.
import { findContactById } from '../contacts/store.js';
import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import type { JobHandler } from '../jobs/runner.js';
import { cachedRow } from '../store/row-cache.js';
import { insertStepRun, moveExecution, type Execution, type ExecutionStatus } from './executions-store.js';
import { nextStep } from './graph.js';
import { executionScope } from './scope.js';
import { conditionStep } from './steps/condition.js';
import { exitStep } from './steps/exit.js';
import { sendEmailStep } from './steps/send-email.js';
import type { StepHandler, StepResult, StepTools } from './steps/step.js';
import { delayStep, waitForEventStep } from './steps/timing.js';
import { updateContactStep } from './steps/update-contact.js';
import { webhookStep } from './steps/webhook.js';
import type { AddableStepType } from './step-types.js';
import { findWorkflow, graphOf, type Step, type WorkflowGraph } from './store.js';
import { findExecution } from './executions-store.js';

export const STEP_JOB = 'workflow.step';

export interface StepJobPayload {
  executionId: string;
  seq: number;
}

const HANDLERS: Record<AddableStepType, StepHandler> = {
  SEND_EMAIL: sendEmailStep,
  DELAY: delayStep,
  WAIT_FOR_EVENT: waitForEventStep,
  CONDITION: conditionStep,
  WEBHOOK: webhookStep,
  UPDATE_CONTACT: updateContactStep,
  EXIT: exitStep,
};

/** The graph of a workflow, memoized until a workflow, step or transition changes. */
export function loadGraph(core: Core, projectId: string, workflowId: string): WorkflowGraph | null {
  return cachedRow(core.db, ['workflows', 'workflow_steps', 'workflow_transitions'], `workflow:${projectId}:${workflowId}`, () => {
    const workflow = findWorkflow(core.db, projectId, workflowId);
    return workflow ? graphOf(core.db, workflow) : null;
  });
}

/**
 * Queues the job of step number `seq`: now to run it, or at `timerAt` to end its wait (a second job
 * for the same step, so its key differs from the running one's). Safe to call twice for either.
 */
export function queueStep(core: Core, execution: Pick<Execution, 'id' | 'projectId'>, seq: number, timerAt?: number): void {
  const payload: StepJobPayload = { executionId: execution.id, seq };
  const uniqueKey = `${STEP_JOB}:${execution.id}:${seq}${timerAt === undefined ? '' : ':timer'}`;
  core.jobs.enqueue(STEP_JOB, payload, { projectId: execution.projectId, uniqueKey, maxAttempts: 20, ...(timerAt === undefined ? {} : { runAt: timerAt }) });
}

/**
 * Moves the execution past its step, which ended with `branch`: to the step it leads to (RUNNING,
 * its job queued), or COMPLETED when it leads nowhere. In the caller's transaction.
 */
export function advance(core: Core, graph: WorkflowGraph, execution: Execution, from: readonly ExecutionStatus[], branch: string | null): boolean {
  const now = core.clock.now();
  const next = execution.currentStepId ? nextStep(graph, execution.currentStepId, branch) : null;
  const seq = execution.seq + 1;
  if (!next) return moveExecution(core.db, execution.id, execution.seq, from, { status: 'COMPLETED', currentStepId: null, seq }, now);
  if (!moveExecution(core.db, execution.id, execution.seq, from, { status: 'RUNNING', currentStepId: next.id, seq }, now)) return false;
  queueStep(core, execution, seq);
  return true;
}

/** Writes a step's outcome; answers false when someone else already moved the execution. */
function settle(core: Core, graph: WorkflowGraph, execution: Execution, step: Step, result: StepResult, startedAt: number): boolean {
  return core.bus.tx(() => {
    const now = core.clock.now();
    const run = { executionId: execution.id, seq: execution.seq, stepId: step.id, stepType: step.type, output: result.output ?? null, startedAt };
    const running: readonly ExecutionStatus[] = ['RUNNING'];
    switch (result.kind) {
      case 'next':
        if (!advance(core, graph, execution, running, result.branch ?? null)) return false;
        result.effect?.();
        insertStepRun(core.db, { ...run, status: 'COMPLETED', error: null, finishedAt: now });
        return true;
      case 'wait':
        if (!moveExecution(core.db, execution.id, execution.seq, running, { status: 'WAITING', currentStepId: step.id, seq: execution.seq, waitEventName: result.eventName ?? null }, now)) return false;
        insertStepRun(core.db, { ...run, status: 'WAITING', error: null, finishedAt: null });
        if (result.until !== null) queueStep(core, execution, execution.seq, result.until);
        return true;
      case 'exit':
      case 'fail': {
        const status = result.kind === 'exit' ? 'EXITED' : 'FAILED';
        const error = result.kind === 'fail' ? result.error : null;
        if (!moveExecution(core.db, execution.id, execution.seq, running, { status, currentStepId: step.id, seq: execution.seq + 1, error }, now)) return false;
        insertStepRun(core.db, { ...run, status: result.kind === 'exit' ? 'COMPLETED' : 'FAILED', error, finishedAt: now });
        return true;
      }
    }
  });
}

/**
 * A waiting execution goes on from its DELAY or WAIT_FOR_EVENT step, by `branch` (`event` or
 * `timeout` for a wait, none for a delay). In the caller's transaction; false when it had moved already.
 */
export function resume(core: Core, graph: WorkflowGraph, execution: Execution, branch: string | null, output: unknown): boolean {
  const step = graph.steps.find((s) => s.id === execution.currentStepId);
  if (!step || !advance(core, graph, execution, ['WAITING'], branch)) return false;
  const now = core.clock.now();
  insertStepRun(core.db, { executionId: execution.id, seq: execution.seq, stepId: step.id, stepType: step.type, status: 'COMPLETED', output, error: null, startedAt: now, finishedAt: now });
  return true;
}

/** A failure as the execution records it; a validation refusal names its first field. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const first = err instanceof ApiError ? err.extra.errors?.[0] : undefined;
  return first ? `${err.message}: ${first.field}: ${first.message}` : err.message;
}

/** The `workflow.step` job: runs the execution's current step, or ends its wait when the timer is due. */
export function stepJob(core: Core, tools: StepTools): JobHandler<StepJobPayload> {
  return {
    // A step may wait on a webhook for seconds: a project holds at most 16 places (what all projects
    // shared before), the other 16 stay free for other projects' steps.
    concurrency: 32,
    perProject: 16,
    async run(job) {
      const execution = job.projectId ? findExecution(core.db, job.projectId, job.payload.executionId) : null;
      if (!execution || execution.seq !== job.payload.seq) return;
      const graph = loadGraph(core, execution.projectId, execution.workflowId);
      const step = graph?.steps.find((s) => s.id === execution.currentStepId);
      if (!graph || !step) return;
      if (execution.status === 'WAITING') {
        // the timer of a DELAY, or the timeout of a WAIT_FOR_EVENT
        core.bus.tx(() => resume(core, graph, execution, step.type === 'WAIT_FOR_EVENT' ? 'timeout' : null, { resumedBy: step.type === 'WAIT_FOR_EVENT' ? 'timeout' : 'timer' }));
        return;
      }
      if (execution.status !== 'RUNNING' || step.type === 'TRIGGER') return;
      const contact = execution.contactId ? findContactById(core.db, execution.projectId, execution.contactId) : null;
      if (!contact) return;
      const startedAt = core.clock.now();
      let result: StepResult;
      try {
        result = await HANDLERS[step.type]({ core, tools, graph, execution, step, contact, scope: executionScope(core, execution, contact), attempt: job.attempts });
      } catch (err) {
        // a retryable failure (a webhook's network error) until its attempts run out
        if (step.type === 'WEBHOOK' && job.attempts < job.maxAttempts) throw err;
        result = { kind: 'fail', error: reasonOf(err) };
      }
      try {
        settle(core, graph, execution, step, result, startedAt);
      } catch (err) {
        // Nothing of the outcome was written. A refusal by the rules (an UPDATE_CONTACT the data
        // limits refuse) would be refused again: the step fails with it, as does anything else once
        // the job's attempts run out, so no execution stays RUNNING behind a job that failed.
        if (!(err instanceof ApiError) && job.attempts < job.maxAttempts) throw err;
        settle(core, graph, execution, step, { kind: 'fail', error: `the step's outcome could not be written: ${reasonOf(err)}`, output: result.output }, startedAt);
      }
    },
  };
}
