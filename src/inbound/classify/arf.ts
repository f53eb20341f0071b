import { addressOfField } from './fields.js';
import type { Fields } from './fields.js';

/** What a feedback report (RFC 5965) says about the complaint. */
export interface ArfComplaint {
  feedbackType: string;
  recipient: string | null;
}

/**
 * Reads a message/feedback-report part. Feedback loops that redact Original-Rcpt-To often
 * leave the To of the returned original; a redacted value holds no address and stays null.
 */
export function arfComplaint(groups: readonly Fields[], original: Fields | null): ArfComplaint {
  const field = (name: string): string | undefined =>
    groups.find((fields) => fields.has(name))?.get(name);
  const feedbackType = (field('feedback-type') ?? '').trim().split(/\s/)[0].toLowerCase();
  return {
    // RFC 5965 makes Feedback-Type mandatory; "other" is its own word for anything unnamed.
    feedbackType: feedbackType || 'other',
    recipient: addressOfField(field('original-rcpt-to')) ?? addressOfField(original?.get('to')),
  };
}
