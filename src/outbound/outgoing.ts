import type { Core } from '../core.js';
import { unpackMessage } from '../emails/packing.js';
import type { Email, StoredMessage } from '../emails/store.js';
import type { MailThreads } from './dkim/threads.js';
import { dkimFor } from './signing-key.js';

export interface Outgoing {
  /** The DKIM-Signature header, sent in front of `raw` (null when the message goes unsigned or was stored signed). */
  head: Buffer | null;
  raw: Buffer;
  /** Signed in this attempt and not stored yet: kept only if another attempt will need it. */
  freshlySigned: boolean;
}

/** The bytes to send: signed on a mail thread with the sender domain's DKIM key once; a stored signed copy is reused. */
export async function outgoing(core: Core, signer: MailThreads, email: Email, message: StoredMessage): Promise<Outgoing> {
  const key = message.signed ? null : dkimFor(core, email.projectId, email.senderDomain);
  // no key: the domain lost its verification after acceptance; send unsigned rather than lose it
  if (!key) return { head: null, raw: unpackMessage(message), freshlySigned: false };
  const signed = await signer.sign(message, key, core.clock.now());
  return { head: signed.header, raw: signed.message, freshlySigned: true };
}
