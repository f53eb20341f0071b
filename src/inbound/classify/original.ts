import { headerText } from './mime-tree.js';
import type { MessageParts } from './mime-tree.js';
import { messageIdOf } from './fields.js';
import type { Fields } from './fields.js';
import { emailIdFromVerp, emailIdOrNull } from '../../emails/verp.js';

/** Which outbound email a report is about. */
export interface OriginalReference {
  emailId: string | null;
  originalMessageId: string | null;
}

const ORIGINAL_ID_FIELDS = ['original-message-id', 'x-original-message-id'];

/**
 * The email a report names. The VERP envelope recipient is the surest link, then the VERP
 * sender a feedback report quotes (Original-Mail-From), then our own header in the returned
 * original. The Message-ID comes from the returned original, then from the fields some
 * reporters add, then from In-Reply-To, which Gmail and Exchange set on their bounces.
 */
export function originalReference(
  rcptTo: readonly string[],
  message: MessageParts,
  original: Fields | null,
  reportFields: readonly Fields[],
): OriginalReference {
  const emailId =
    [...rcptTo, ...reportFields.map((fields) => fields.get('original-mail-from') ?? '')]
      .map(emailIdFromVerp)
      .find((id) => id !== null) ?? emailIdOrNull(original?.get('x-postmill-email-id'));
  const candidates = [
    original?.get('message-id'),
    ...ORIGINAL_ID_FIELDS.flatMap((name) => reportFields.map((fields) => fields.get(name))),
    ...ORIGINAL_ID_FIELDS.map((name) => headerText(message.headers, name)),
    headerText(message.headers, 'in-reply-to'),
  ];
  const originalMessageId = candidates.map(messageIdOf).find((id) => id !== null) ?? null;
  return { emailId, originalMessageId };
}
