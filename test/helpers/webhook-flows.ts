import * as assert from 'uvu/assert';
import type { TestDaemon } from './daemon.js';
import { eventually } from './mail-env.js';

/** A workflow whose only step is a WEBHOOK with `config`, enabled, started by `event`. */
export async function webhookFlow(daemon: TestDaemon, event: string, config: Record<string, unknown>): Promise<string> {
  const w = (await daemon.request('POST', '/workflows', { name: event, eventName: event })).body;
  const step = await daemon.request('POST', `/workflows/${w.id}/steps`, { type: 'WEBHOOK', name: 'hook', config });
  assert.is(step.status, 201, JSON.stringify(step.body));
  await daemon.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: step.body.id });
  assert.is((await daemon.request('PATCH', `/workflows/${w.id}`, { enabled: true })).status, 200);
  return w.id;
}

/** `/v1/track` with the project's public key: what a browser may send. */
export const trackPublic = (daemon: TestDaemon, email: string, event: string, data: Record<string, unknown> = {}) =>
  daemon.request('POST', '/v1/track', { email, event, data }, { key: daemon.project.publicKey });

export interface ExecutionView {
  id: string;
  status: string;
  error: string | null;
}

/** Waits until the workflow has `count` executions, all in one of `statuses`; answers them. */
export const executionsSettled = (daemon: TestDaemon, workflowId: string, count: number, statuses: string[], timeoutMs = 10_000) =>
  eventually(
    async () => {
      const list = (await daemon.request('GET', `/workflows/${workflowId}/executions?pageSize=100`)).body.data as ExecutionView[];
      return list.length === count && list.every((e) => statuses.includes(e.status)) ? list : null;
    },
    timeoutMs,
    `${count} executions of ${workflowId} ${statuses.join('/')}`,
  );

/** The workflow's one execution, once it is in one of `statuses`. */
export const onlyExecution = async (daemon: TestDaemon, workflowId: string, statuses: string[]) => (await executionsSettled(daemon, workflowId, 1, statuses))[0]!;

/** The daemon still answers, and its process is the one started. */
export async function assertAlive(daemon: TestDaemon): Promise<void> {
  assert.not.throws(() => process.kill(daemon.pid(), 0), 'the daemon process is alive');
  assert.is((await daemon.request('GET', '/health', undefined, { key: null })).status, 200);
}
