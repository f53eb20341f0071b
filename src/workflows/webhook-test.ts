// A WEBHOOK step's config tried before it runs for real: one request, filled for a contact of the
// project (or a stand-in with no data), signed like the step's, through the same guarded and
// bounded client (address checks, pinning, 10 s, 5 redirects). Nothing is stored; no retries.
import { randomUUID } from 'node:crypto';
import type { Contact } from '../contacts/store.js';
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import { standIn } from '../templates/preview.js';
import { sendWebhook } from '../webhooks/request.js';
import { contactScope } from './scope.js';
import { checkStepConfig } from './step-config.js';
import { webhookOptions, webhookRequest, type WebhookConfig } from './steps/webhook.js';
import type { Workflow } from './store.js';

export interface WebhookTestResult {
  /** The receiver answered 2xx: the step would go on. */
  ok: boolean;
  /** Its status, null when no answer came (refused address, network error, timeout). */
  status: number | null;
  /** The URL asked last (after redirects), or the filled URL when none answered. */
  url: string;
  /** The start of the answer (at most 4 KB). */
  response: string | null;
  /** Why no answer came, or why the step would fail. */
  error: string | null;
  /** X-Postmill-Delivery of the request: `test:<id>`, so a receiver can tell a test from a step. */
  delivery: string;
}

export async function testWebhook(core: Core, dns: Dns, workflow: Workflow, config: WebhookConfig, contact: Contact | null): Promise<WebhookTestResult> {
  checkStepConfig(core, workflow.projectId, 'WEBHOOK', config as unknown as Record<string, unknown>);
  const who = contact ?? standIn(workflow.projectId);
  const id = randomUUID();
  const delivery = `test:${id}`;
  let url = config.url;
  try {
    const payload = { contact: who, workflow, execution: { id, startedAt: core.clock.now() }, event: {} };
    const request = webhookRequest(core, workflow.projectId, config, contactScope(core, who, { context: {}, event: {} }), payload, delivery);
    url = request.url;
    const res = await sendWebhook(request, webhookOptions(core, dns));
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, url: res.url, response: res.body, error: ok ? null : `the webhook answered ${res.status}`, delivery };
  } catch (err) {
    return { ok: false, status: null, url, response: null, error: err instanceof Error ? err.message : String(err), delivery };
  }
}
