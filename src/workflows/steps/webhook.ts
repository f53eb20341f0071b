// WEBHOOK: an HTTP request to the workflow's URL with placeholders filled (and encoded where they
// stand: src/webhooks/fill.ts), signed with the project's secret. Network errors and 5xx are retried
// (3 attempts, the job runner's backoff); a 4xx, a failure no retry mends (a refused address, a value
// that cannot be placed) or a failure after the last attempt fails the execution with its reason.
import { renderPlain, type Scope } from '../../render/render.js';
import { fillHeaderValue, fillUrl } from '../../webhooks/fill.js';
import type { Core } from '../../core.js';
import type { Dns } from '../../dns/resolver.js';
import { sendWebhook, WebhookError, type WebhookOptions, type WebhookRequest } from '../../webhooks/request.js';
import { projectWebhookSecret } from '../../webhooks/secret.js';
import { SIGNATURE_HEADER, signatureOf } from '../../webhooks/signature.js';
import type { StepHandler, StepInput, StepResult } from './step.js';

export interface WebhookConfig {
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

/** What the spec's default payload is made of: the contact, the workflow, the execution and the trigger event's data. */
export interface PayloadParts {
  contact: { email: string; subscribed: boolean; data: Record<string, unknown> };
  workflow: { id: string; name: string };
  execution: { id: string; startedAt: number };
  event: Record<string, unknown>;
}

const defaultPayload = (p: PayloadParts) => ({
  contact: { email: p.contact.email, subscribed: p.contact.subscribed, data: p.contact.data },
  workflow: { id: p.workflow.id, name: p.workflow.name },
  execution: { id: p.execution.id, startedAt: new Date(p.execution.startedAt).toISOString() },
  event: p.event,
});

/** The step's own headers, names lower-cased, values filled and encoded (src/webhooks/fill.ts). */
function stepHeaders(headers: Record<string, string>, scope: Scope): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), fillHeaderValue(name, value, scope)]));
}

/**
 * A WEBHOOK config's request for `scope`: URL and headers filled, the body (the config's, or the
 * default payload), signed with the project's secret and marked with `delivery`. Throws a
 * WebhookError no retry mends when a value cannot be placed.
 */
export function webhookRequest(core: Core, projectId: string, config: WebhookConfig, scope: Scope, payload: PayloadParts, delivery: string): WebhookRequest {
  const url = fillUrl(config.url, scope).href;
  const originHeaders = stepHeaders(config.headers ?? {}, scope);
  const method = config.method ?? 'POST';
  const body = method === 'GET' ? null : JSON.stringify(config.body === undefined ? defaultPayload(payload) : renderJson(config.body, scope));
  const headers: Record<string, string> = {
    'user-agent': 'Postmill-Webhook/1',
    'x-postmill-delivery': delivery,
    [SIGNATURE_HEADER.toLowerCase()]: signatureOf(projectWebhookSecret(core.db, projectId), body ?? '', core.clock.now()),
    ...(body !== null ? { 'content-type': originHeaders['content-type'] ?? 'application/json' } : {}),
  };
  return { url, method, headers, originHeaders, body };
}

/** The bounds and guard of every webhook request: 10 s per attempt, 5 redirects, private targets refused unless allowed. */
export const webhookOptions = (core: Core, dns: Dns): WebhookOptions => ({ dns, allowPrivate: core.config.webhooks.allowPrivate, timeoutMs: TIMEOUT_MS, maxRedirects: MAX_REDIRECTS });

/** The step fails for good: the execution records why, the journal says so once. */
function failed({ core, execution, step }: StepInput, error: string, output?: unknown): StepResult {
  core.log.warn('webhook failed', { projectId: execution.projectId, workflowId: execution.workflowId, executionId: execution.id, stepId: step.id, error });
  return { kind: 'fail', error, ...(output !== undefined ? { output } : {}) };
}

export const webhookStep: StepHandler = async (input) => {
  const { core, tools, graph, execution, contact, step, scope, attempt } = input;
  const config = step.config as unknown as WebhookConfig;
  let url = config.url;
  try {
    const payload: PayloadParts = { contact, workflow: graph, execution, event: execution.triggerEvent?.data ?? {} };
    const request = webhookRequest(core, execution.projectId, config, scope, payload, `${execution.id}:${execution.seq}`);
    url = request.url;
    const res = await sendWebhook(request, webhookOptions(core, tools.dns));
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
