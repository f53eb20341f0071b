// Outbound mail carries a per-message Return-Path naming its email record, so a bounce sent
// to it says which email failed even when the bounce itself quotes nothing of the original.
import { EMAIL_ID } from './ids.js';

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
