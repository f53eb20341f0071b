/**
 * The outcome of handing one message to one SMTP server; `tls` is the session's protocol
 * (`TLSv1.3`) when it ran over TLS, null when it did not (or no session was made).
 */
export type Attempt =
  | { ok: true; response: string; tls: string | null }
  | { ok: false; permanent: boolean; code: number | null; enhancedCode: string | null; response: string; tls: string | null };

/** What nodemailer attaches to its errors (see NodemailerError). */
interface SmtpError {
  message?: unknown;
  code?: unknown;
  response?: unknown;
  responseCode?: unknown;
}

/** RFC 3463 enhanced status code at the start of a reply text, e.g. `550 5.1.1 ...`. */
const ENHANCED_CODE = /^[245]\d\d[ -]([245]\.\d{1,3}\.\d{1,3})(?:\s|$)/;

export function enhancedCodeOf(response: string): string | null {
  return ENHANCED_CODE.exec(response)?.[1] ?? null;
}

/**
 * Classifies a failed send. Only a 5xx reply is permanent (nodemailer's reading: 503 is a
 * session state error, not a refusal of the message); a failed AUTH is our configuration,
 * not the recipient's fault, so it is retried. Failures without a reply (refused, timed
 * out, dropped) are temporary.
 */
export function attemptFromError(err: unknown): Attempt {
  const details: SmtpError = typeof err === 'object' && err !== null ? err : { message: String(err) };
  const response = typeof details.response === 'string' ? details.response : String(details.message ?? err);
  const code = typeof details.responseCode === 'number' ? details.responseCode : null;
  const permanent = code !== null && code >= 500 && code !== 503 && details.code !== 'EAUTH';
  return { ok: false, permanent, code, enhancedCode: enhancedCodeOf(response), response, tls: null };
}
