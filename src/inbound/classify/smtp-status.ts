// SMTP reply codes (550) and enhanced status codes (RFC 3463, 5.1.1) as bounces quote them.

import type { BounceType } from './types.js';

// The subject digit stops at 7 (RFC 3463 defines X.0 to X.7), which keeps version numbers
// such as "Exim 4.94.2" and the tail of IP addresses from reading as status codes.
const ENHANCED_STATUS = enhancedStatus('245');
const FAILURE_STATUS = enhancedStatus('45');
const FAILURE_REPLY_CODE = /(?<![\w.])([45][0-5]\d)(?=[ \t:-])/;

function enhancedStatus(classes: string): RegExp {
  return new RegExp(`(?<![\\w.])([${classes}]\\.[0-7]\\.\\d{1,3})(?!\\.?\\d)`);
}

/** The first enhanced status code in `text`, or null. */
export function enhancedStatusIn(text: string | null | undefined): string | null {
  return text ? (ENHANCED_STATUS.exec(text)?.[1] ?? null) : null;
}

/**
 * The first failure status in `text` with the line quoting it: an enhanced status code when
 * there is one, otherwise a 4xx/5xx reply code.
 */
export function failureStatusIn(text: string): { status: string; line: string } | null {
  const match = FAILURE_STATUS.exec(text) ?? FAILURE_REPLY_CODE.exec(text);
  if (!match) return null;
  const lineStart = text.lastIndexOf('\n', match.index) + 1;
  const lineEnd = text.indexOf('\n', match.index);
  const line = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  return { status: match[1], line: line.replace(/\s+/g, ' ').trim() };
}

/** A full mailbox (x.2.2) is temporary in practice: unsubscribing the contact for it would be wrong. */
export const isMailboxFull = (status: string | null): boolean => status?.slice(1) === '.2.2';

/** Permanent for a 5 class (a full mailbox aside), Transient for a 4 class, null for anything else. */
export function bounceTypeOfStatus(status: string | null): BounceType | null {
  if (isMailboxFull(status)) return 'Transient';
  if (status?.[0] === '5') return 'Permanent';
  if (status?.[0] === '4') return 'Transient';
  return null;
}
