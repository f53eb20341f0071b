// Outbound mail carries a per-message Return-Path naming its email record, so a bounce sent
// to it says which email failed even when the bounce itself quotes nothing of the original.

// v7 since emails got time-ordered ids (src/emails/ids.ts), v4 before
const EMAIL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const VERP_LOCAL_PART = /^b-([0-9a-f-]{36})$/i;

/** The lowercase email id when `value` is one (a UUID v7, or v4), otherwise null. */
export function emailIdOrNull(value: string | null | undefined): string | null {
  const candidate = value?.trim() ?? '';
  return EMAIL_ID.test(candidate) ? candidate.toLowerCase() : null;
}

/** `b-<emailId>@bounces.<senderDomain>`, the envelope sender of one outbound email. */
export function verpAddress(emailId: string, senderDomain: string): string {
  const id = emailIdOrNull(emailId);
  if (id === null) throw new TypeError(`not an email id (UUID v7 or v4): ${emailId}`);
  return `b-${id}@bounces.${senderDomain.toLowerCase()}`;
}

/** The email id named by a VERP address (angle brackets allowed), or null for any other address. */
export function emailIdFromVerp(address: string): string | null {
  const bare = address.trim().replace(/^<(.*)>$/, '$1');
  const at = bare.lastIndexOf('@');
  if (at <= 0 || at === bare.length - 1) return null;
  const match = VERP_LOCAL_PART.exec(bare.slice(0, at));
  return match ? emailIdOrNull(match[1]) : null;
}
