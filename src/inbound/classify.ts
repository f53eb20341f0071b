// Tells what an inbound message is: a bounce, a complaint, an automatic reply, or mail for a person.

import { arfComplaint } from './classify/arf.js';
import { isAutoReply } from './classify/auto-reply.js';
import { dsnOutcome } from './classify/dsn.js';
import { parseFieldGroups, parseHeaderBlock } from './classify/fields.js';
import { plainBounce, quotedOriginal } from './classify/heuristics.js';
import { readMessage } from './classify/mime-tree.js';
import type { MessageParts } from './classify/mime-tree.js';
import { originalReference } from './classify/original.js';
import type { Classification } from './classify/types.js';

export type { BounceType, Classification } from './classify/types.js';
export { emailIdFromVerp, verpAddress } from '../emails/verp.js';

/** The SMTP envelope of the message. */
export interface Envelope {
  /** MAIL FROM; '' (or '<>') for the null sender that bounces and many auto-replies use. */
  mailFrom: string;
  /** Every RCPT TO; a VERP address among them names the email a bounce is about. */
  rcptTo: string[];
}

/**
 * Classifies one raw message. Report parts are read from the MIME tree: a delivery-status
 * report first (they often carry Auto-Submitted too), then a feedback report, then the plain
 * notices of mailer daemons, then automatic replies. Never rejects.
 */
export async function classifyMessage(raw: Buffer, envelope: Envelope): Promise<Classification> {
  try {
    return classifyParts(await readMessage(raw), envelope);
  } catch {
    // Whatever the sender wrote, the message was accepted and must be recorded as something.
    return { kind: 'received' };
  }
}

function classifyParts(message: MessageParts, envelope: Envelope): Classification {
  const attached = message.original === null ? null : parseHeaderBlock(message.original);
  if (message.deliveryStatus !== null) {
    const groups = parseFieldGroups(message.deliveryStatus);
    const outcome = dsnOutcome(groups);
    // A success report is recorded, never counted as a bounce.
    if (outcome === 'delivered') return autoReply(message);
    if (outcome !== null) {
      return { kind: 'bounce', ...outcome, ...originalReference(envelope.rcptTo, message, attached, groups) };
    }
  }
  if (message.feedbackReport !== null) {
    const groups = parseFieldGroups(message.feedbackReport);
    return {
      kind: 'complaint',
      ...arfComplaint(groups, attached),
      ...originalReference(envelope.rcptTo, message, attached, groups),
    };
  }
  const bounce = plainBounce(message, envelope.mailFrom);
  if (bounce !== null) {
    const original = attached ?? quotedOriginal(message.text);
    return { kind: 'bounce', ...bounce, ...originalReference(envelope.rcptTo, message, original, []) };
  }
  return isAutoReply(message) ? autoReply(message) : { kind: 'received' };
}

function autoReply(message: MessageParts): Classification {
  return { kind: 'auto-reply', from: message.from, subject: message.subject };
}
