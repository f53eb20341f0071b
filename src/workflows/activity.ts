// Workflow executions in the activity feed: one `workflow.execution` entry per execution, at its start.
import type { ActivitySource, ActivitySources } from '../activity/sources.js';
import { executionsPage } from './executions-store.js';

export const EXECUTION_ACTIVITY = 'workflow.execution';

const executionActivitySource: ActivitySource = {
  name: 'workflows',
  entries(ctx, query) {
    if (query.types !== null && !query.types.includes(EXECUTION_ACTIVITY)) return [];
    return executionsPage(ctx.db, { ...query }).map((e) => ({
      key: e.key,
      id: e.id,
      type: EXECUTION_ACTIVITY,
      at: e.startedAt,
      contactId: e.contactId,
      metadata: { workflowId: e.workflowId, executionId: e.id, status: e.status },
    }));
  },
};

export function workflowActivity(sources: ActivitySources): void {
  sources.register(executionActivitySource);
}
