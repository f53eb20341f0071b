// WEBHOOK: an HTTP request to the workflow's URL with placeholders filled (and encoded where they
// stand: src/webhooks/fill.ts), signed with the project's secret. Network errors and 5xx are retried
// (3 attempts, the job runner's backoff); a 4xx, a failure no retry mends (a refused address, a value
// that cannot be placed) or a failure after the last attempt fails the execution with its reason.
import { renderPlain, type Scope } from '../../render/render.js';
import { fillHeaderValue, fillUrl } from '../../webhooks/fill.js';
import { sendWebhook, WebhookError } from '../../webhooks/request.js';
import { projectWebhookSecret } from '../../webhooks/secret.js';
import { SIGNATURE_HEADER, signatureOf } from '../../webhooks/signature.js';
import type { StepHandler, StepInput, StepResult } from './step.js';

interface WebhookConfig {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
}

export const WEBHOOK_ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/** Placeholders in every string of a custom body, keys included. */
function renderJson(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return renderPlain(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderJson(v, scope));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [renderPlain(k, scope), renderJson(v, scope)]));
  return value;
}

/** The spec's default payload: the contact, the workflow, the execution and the trigger event. */
function defaultPayload({ graph, execution, contact }: StepInput) {
  return {
    contact: { email: contact.email, subscribed: contact.subscribed, data: contact.data },
    workflow: { id: graph.id, name: graph.name },
    execution: { id: execution.id, startedAt: new Date(execution.startedAt).toISOString() },
    event: execution.triggerEvent?.data ?? {},
  };
}

/** The step's own headers, names lower-cased, values filled and encoded (src/webhooks/fill.ts). */
function stepHeaders(headers: Record<string, string>, scope: Scope): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), fillHeaderValue(name, value, scope)]));
}

/** The step fails for good: the execution records why, the journal says so once. */
function failed({ core, execution, step }: StepInput, error: string, output?: unknown): StepResult {
  core.log.warn('webhook failed', { projectId: execution.projectId, workflowId: execution.workflowId, executionId: execution.id, stepId: step.id, error });
  return { kind: 'fail', error, ...(output !== undefined ? { output } : {}) };
}

export const webhookStep: StepHandler = async (input) => {
  const { core, tools, execution, step, scope, attempt } = input;
  const config = step.config as unknown as WebhookConfig;
  let url = config.url;
  try {
    url = fillUrl(config.url, scope).href;
    const originHeaders = stepHeaders(config.headers ?? {}, scope);
    const method = config.method ?? 'POST';
    const body = method === 'GET' ? null : JSON.stringify(config.body === undefined ? defaultPayload(input) : renderJson(config.body, scope));
    const headers: Record<string, string> = {
      'user-agent': 'Postmill-Webhook/1',
      'x-postmill-delivery': `${execution.id}:${execution.seq}`,
      [SIGNATURE_HEADER.toLowerCase()]: signatureOf(projectWebhookSecret(core.db, execution.projectId), body ?? '', core.clock.now()),
      ...(body !== null ? { 'content-type': originHeaders['content-type'] ?? 'application/json' } : {}),
    };
    const res = await sendWebhook(
      { url, method, headers, originHeaders, body },
      { dns: tools.dns, allowPrivate: core.config.webhooks.allowPrivate, timeoutMs: TIMEOUT_MS, maxRedirects: MAX_REDIRECTS },
    );
    const output = { status: res.status, url: res.url, response: res.body };
    if (res.status >= 200 && res.status < 300) return { kind: 'next', output };
    if (res.status >= 500 && attempt < WEBHOOK_ATTEMPTS) throw new WebhookError(`answered ${res.status}`, true);
    return failed(input, `the webhook answered ${res.status}`, output);
  } catch (err) {
    const retryable = !(err instanceof WebhookError) || err.retryable;
    const message = err instanceof Error ? err.message : String(err);
    if (retryable && attempt < WEBHOOK_ATTEMPTS) throw err;
    return failed(input, `webhook to ${url} failed: ${message}`);
  }
};
