import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Postmill-Signature';
/** What SIGNATURE_HEADER holds, as the settings route and the README spell it. */
export const SIGNATURE_FORMAT = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`: the receiver recomputes it with the project's secret and checks the time. */
export function signatureOf(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
