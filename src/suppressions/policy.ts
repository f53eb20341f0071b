// Which mail a suppressed address (hard bounce, complaint) may still get: by content type, whatever
// the route. Every sending path asks here (the /v1/send refusal, the delivery job's last check).
import type { Core } from '../core.js';
import type { MessageType, SourceType } from '../emails/store.js';
import { badRequest } from '../errors.js';
import type { Db } from '../store/db.js';
import { suppressionOf, type SuppressionReason } from './store.js';

/** MARKETING and HEADLESS content, and all campaign and workflow mail, respect suppressions; TRANSACTIONAL content still goes. */
const respectsSuppression = (messageType: MessageType, sourceType: SourceType) =>
  messageType !== 'TRANSACTIONAL' || sourceType === 'CAMPAIGN' || sourceType === 'WORKFLOW';

/** Why mail of this kind must not go to the address (its suppression), or null when it may. */
export function suppressionWithholding(db: Db, projectId: string, address: string, mail: { messageType: MessageType; sourceType: SourceType }): SuppressionReason | null {
  return respectsSuppression(mail.messageType, mail.sourceType) ? suppressionOf(db, projectId, address) : null;
}

/**
 * Refuses a send the API asked for (a /v1/send, a campaign's test) to a suppressed address (400),
 * before anything is written; `subscribed: true` does not lift a suppression.
 */
export function refuseSuppressed(core: Core, projectId: string, address: string, mail: { messageType: MessageType; sourceType: SourceType }): void {
  const reason = suppressionWithholding(core.db, projectId, address, mail);
  if (reason === null) return;
  throw badRequest(
    `${address} is suppressed after a ${reason}: ${mail.sourceType === 'CAMPAIGN' ? 'campaign mail' : `${mail.messageType} content`} never goes to it`,
    'Only TRANSACTIONAL content (a receipt, a password reset) is sent to a suppressed address',
  );
}
