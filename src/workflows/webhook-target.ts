// A WEBHOOK step's target, checked when the step is saved and when its workflow is enabled, by the
// same guard its requests go through (src/webhooks/request.ts): a host that does not resolve now, or
// resolves only to addresses the guard refuses (a loopback listener without webhooks.allowPrivate,
// say), is a 4xx naming the step, not the failure of the first execution that reaches it. Requests
// still resolve and judge every hop again: an answer may change, a redirect may point elsewhere.
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import { ApiError, validationFailed } from '../errors.js';
import { urlHost } from '../webhooks/fill.js';
import { guardedAddress, WebhookError } from '../webhooks/request.js';
import type { WorkflowGraph } from './store.js';

const SUGGESTION = 'Use a URL whose host resolves to a public address, or set webhooks.allowPrivate in the configuration to reach loopback and private addresses';

/** Why the step's requests would be refused now, or null (also when the URL itself is wrong: the config check says so). */
async function targetProblem(core: Core, dns: Dns, url: unknown): Promise<string | null> {
  const host = typeof url === 'string' ? urlHost(url) : null;
  if (host === null) return null;
  try {
    await guardedAddress(host, { dns, allowPrivate: core.config.webhooks.allowPrivate });
    return null;
  } catch (err) {
    // the guard's own refusals say it all; a lookup that failed (timeout, SERVFAIL) is named as one
    return err instanceof WebhookError ? err.message : `${host} could not be resolved: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** 422 on `config.url` when a step of this config would have its requests refused. */
export async function assertWebhookTarget(core: Core, dns: Dns, config: Record<string, unknown>): Promise<void> {
  const problem = await targetProblem(core, dns, config.url);
  if (!problem) return;
  throw validationFailed([{ field: 'config.url', message: `The step's requests would be refused: ${problem}. ${SUGGESTION}`, code: 'invalid_string', received: config.url }]);
}

/** 400 naming the first WEBHOOK step of the graph whose requests would be refused. */
export async function assertWebhookTargets(core: Core, dns: Dns, graph: WorkflowGraph): Promise<void> {
  for (const step of graph.steps.filter((s) => s.type === 'WEBHOOK')) {
    const problem = await targetProblem(core, dns, step.config.url);
    if (problem) {
      throw new ApiError(400, 'BAD_REQUEST', `The workflow cannot be enabled: the requests of WEBHOOK step "${step.name}" would be refused: ${problem}`, {
        details: { stepId: step.id },
        suggestion: SUGGESTION,
      });
    }
  }
}
