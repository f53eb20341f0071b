import type { Core } from '../core.js';
import { captureOf } from '../emails/log-store.js';
import { unpackMessage } from '../emails/packing.js';
import { findStoredMessage, type Email } from '../emails/store.js';
import { isSealed, sealedMessage } from '../emails/sealed.js';
import type { MailThreads } from '../outbound/dkim/threads.js';
import { outgoing } from '../outbound/outgoing.js';

/**
 * The email as it went out, or would have: a captured one with the signature it was captured with;
 * one stored signed (after a deferral) as stored; any other outbound one signed now as its delivery
 * signs it (same key, same bytes, the signature's time now). A received one is its bytes as they
 * came in: only outbound mail is ever signed, or a forged From: of the project's own domain would
 * come back with the project's valid signature. Null when its message is gone.
 */
export async function messageAsSent(core: Core, signer: MailThreads, email: Email): Promise<Buffer | null> {
  // the one way the API reads a message: account mail is for its recipient only
  if (isSealed(core.db, email.id)) throw sealedMessage();
  const stored = findStoredMessage(core.db, email.id);
  if (!stored) return null;
  if (email.sourceType === 'INBOUND') return unpackMessage(stored);
  const captured = captureOf(core.db, email.id);
  if (captured) return Buffer.concat([captured.signature, unpackMessage(stored)]);
  const out = await outgoing(core, signer, email, stored);
  return out.head ? Buffer.concat([out.head, out.raw]) : out.raw;
}
