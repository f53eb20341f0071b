// Workflow triggers and waits as a reactor: an event that starts an enabled workflow, or that an
// execution of the contact may be waiting for, queues one job in the event's own transaction. The
// job starts the executions (an event starts a workflow once, see startExecution) and resumes the waits.
import type { Reactor, StoredEvent } from '../bus/reactor.js';
import { findContactById } from '../contacts/store.js';
import type { Core } from '../core.js';
import type { JobHandler } from '../jobs/runner.js';
import { awaitedEventNames, startingWorkflows } from './store.js';
import { tableMemo } from '../store/table-memo.js';
import { waitingFor, type TriggerEvent } from './executions-store.js';
import { startExecution } from './executions.js';
import { loadGraph, resume } from './runner.js';

export const TRIGGER_JOB = 'reactor.workflows';

interface TriggerPayload {
  event: TriggerEvent;
  contactId: string;
}

/** What a project's workflows listen to: which enabled workflows an event name starts, and the names their steps wait for. */
interface Listening {
  starts: Map<string, string[]>;
  waits: Set<string>;
}

function listeningOf(core: Core) {
  return tableMemo<Listening>(core.db, 'workflow_listening', ['workflows', 'workflow_steps'], (projectId) => {
    const starts = new Map<string, string[]>();
    for (const t of startingWorkflows(core.db, projectId)) starts.set(t.event_name, [...(starts.get(t.event_name) ?? []), t.id]);
    return { starts, waits: new Set(awaitedEventNames(core.db, projectId)) };
  });
}

const built = new WeakMap<Core, { reactor: Reactor; job: JobHandler<TriggerPayload> }>();

/** The reactor and its job share one memo: built once per context. */
export function workflowTriggers(core: Core): { reactor: Reactor; job: JobHandler<TriggerPayload> } {
  let triggers = built.get(core);
  if (!triggers) built.set(core, (triggers = buildTriggers(core)));
  return triggers;
}

function buildTriggers(core: Core): { reactor: Reactor; job: JobHandler<TriggerPayload> } {
  const listening = listeningOf(core);
  const reactor: Reactor = {
    name: 'workflows',
    events: 'all',
    onEvent(event: StoredEvent) {
      if (event.contactId === null) return;
      const l = listening(event.projectId);
      if (!l.starts.has(event.name) && !l.waits.has(event.name)) return;
      const payload: TriggerPayload = { event: { id: event.id, name: event.name, data: event.data, createdAt: event.createdAt }, contactId: event.contactId };
      core.jobs.enqueue(TRIGGER_JOB, payload, { projectId: event.projectId, uniqueKey: `${TRIGGER_JOB}:${event.id}` });
    },
  };
  const job: JobHandler<TriggerPayload> = {
    concurrency: 4,
    async run({ projectId, payload }) {
      const contact = projectId ? findContactById(core.db, projectId, payload.contactId) : null;
      if (!contact) return;
      const { event } = payload;
      for (const workflowId of listening(contact.projectId).starts.get(event.name) ?? []) {
        const graph = loadGraph(core, contact.projectId, workflowId);
        if (graph?.enabled && graph.triggerType === 'EVENT' && graph.eventName === event.name) startExecution(core, graph, contact, { trigger: event, context: {} });
      }
      for (const execution of waitingFor(core.db, contact.projectId, contact.id, event.name)) {
        const graph = loadGraph(core, contact.projectId, execution.workflowId);
        if (graph) core.bus.tx(() => resume(core, graph, execution, 'event', { resumedBy: 'event', event: event.name, eventId: event.id }));
      }
    },
  };
  return { reactor, job };
}
