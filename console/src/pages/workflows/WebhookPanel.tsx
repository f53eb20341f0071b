// What a WEBHOOK step's receiver needs: how Postmill signs each request (the header, the algorithm,
// what is signed, a verifier to copy) and a test request of the config as it is in the form, sent by
// the daemon as the step would send it (POST /workflows/{id}/test-webhook).
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ApiFailure, errorText } from '../../api';
import { useSession } from '../../session';
import { allows } from '../../roles';
import { ErrorNote } from '../../page';
import { CopyButton } from '../../ui/CopyButton';
import { fieldErrorsOf, type FieldErrors } from './schema-check';

interface WebhookTestResult {
  ok: boolean;
  status: number | null;
  url: string;
  response: string | null;
  error: string | null;
  delivery: string;
}

/** What src/webhooks/signature.ts sends: the header, and the HMAC-SHA256 of "t.body" with the project's signing secret. */
const HEADER = 'X-Postmill-Signature';
const VERIFIER = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the project's signing secret; rawBody: the request body as received, unparsed
function verifyPostmill(secret, header, rawBody, toleranceSeconds = 300) {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= toleranceSeconds;
  return fresh && typeof v1 === 'string' && v1.length === expected.length
    && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

// verifyPostmill(secret, req.headers['x-postmill-signature'], rawBody) === true`;

export function WebhookPanel({ workflowId, config, onApiErrors }: { workflowId: string; config: Record<string, unknown>; onApiErrors(errors: FieldErrors): void }) {
  const { project } = useSession();
  const send = useMutation({
    mutationFn: () => api<WebhookTestResult>('POST', `/workflows/${workflowId}/test-webhook`, { config }),
    // the API's field errors go to their fields, like a save's
    onError: (err) => {
      if (err instanceof ApiFailure) onApiErrors(fieldErrorsOf(err.fields));
    },
  });
  const result = send.data;
  return (
    <section aria-labelledby="webhook-signing" className="card">
      <h3 id="webhook-signing">Verifying the signature</h3>
      <p>
        Every request carries <code>{HEADER}: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>: <code>v1</code> is the <strong>HMAC-SHA256</strong> of <code>t</code>, a dot and the raw
        body, keyed with the project's signing secret. A receiver recomputes it, compares in constant time and refuses old timestamps. <code>X-Postmill-Delivery</code>{' '}
        names the execution and step, the same on every retry, so a repeat can be dropped.
      </p>
      <p>
        {allows(project?.role, 'ADMIN') ? (
          <>
            The secret is in <Link to="/settings/webhooks">Settings › Webhooks</Link>.
          </>
        ) : (
          'An owner or admin of the project can read the secret in Settings › Webhooks.'
        )}
      </p>
      <details>
        <summary>A verifier in Node.js</summary>
        <pre>
          <code>{VERIFIER}</code>
        </pre>
        <CopyButton text={VERIFIER} label="verifier" />
      </details>
      <h3>Send a test request</h3>
      <p className="hint">The step as it is in this form, filled for a stand-in contact with no data, signed like a real one; its X-Postmill-Delivery starts with test:. Nothing is saved.</p>
      <button type="button" disabled={send.isPending} onClick={() => send.mutate()}>
        Send test request
      </button>
      <ErrorNote error={send.isError ? errorText(send.error) : null} />
      {send.isPending && <p role="status">Sending…</p>}
      {result && (
        <div role="status">
          <p>{result.status === null ? `No answer: ${result.error}` : `${result.url} answered ${result.status}${result.ok ? ': the step would go on.' : `: the step would fail (${result.error}).`}`}</p>
          {result.response && (
            <pre aria-label="The receiver's answer">
              <code>{result.response}</code>
            </pre>
          )}
        </div>
      )}
    </section>
  );
}
