// Bounces that are not RFC 3464 reports: qmail, older Exim and Sendmail, Exchange and webmail
// NDRs. They are told apart from human mail by who sends them and how they are worded.

import { addressesIn, parseHeaderBlock } from './fields.js';
import type { Fields } from './fields.js';
import type { MessageParts } from './mime-tree.js';
import { bounceTypeOfStatus, failureStatusIn } from './smtp-status.js';
import type { BounceDetails, BounceType } from './types.js';
import { emailIdFromVerp } from '../../emails/verp.js';

const BOUNCE_MAILBOX = /^<?(?:mailer-?daemon|mail-daemon|postmaster)(?:@|>?$)/i;

const BOUNCE_SUBJECT = phrases([
  'undeliver',
  'returned mail',
  'returned to sender',
  'delivery status notification',
  'mail delivery (?:failed|failure|delayed|problem)',
  'delivery (?:has )?failed',
  'delivery failure',
  'delivery notification',
  'failure notice',
  'non-?deliver',
  'could not send message',
  'delayed mail',
  'delivery (?:is )?delayed',
  'unzustellbar',
  'non remis',
]);

const BOUNCE_TEXT = phrases([
  'qmail-send program',
  'created automatically by mail delivery software',
  'delivery has failed to these recipients',
  '(?:could|was|can|has)(?: ?n.?t| not)(?: yet)?(?: be| been)? delivered',
  '(?:could not|unable to) deliver',
  'undeliverable',
  'address not found',
  'permanent (?:fatal )?(?:error|failure)',
  'user unknown',
  'unknown user',
  'no such user',
  'no mailbox here',
  '(?:mailbox|address|user) (?:is )?(?:unavailable|not found|does not exist|doesn.?t exist)',
  'mailbox (?:is )?full',
  'over quota',
  'quota exceeded',
  'recipient address rejected',
  'delivery (?:to the following recipients? )?(?:has been |is )?delayed',
  'will (?:continue to )?retry',
]);

// Without a status code these say the failure may pass: a full mailbox, a delay warning.
const TRANSIENT_TEXT = phrases([
  'mailbox (?:is )?full',
  'over quota',
  'quota exceeded',
  'insufficient (?:storage|disk space)',
  'delay(?:ed)?',
  'will (?:continue to )?retry',
  'still (?:being )?(?:retried|trying)',
  'has not yet been delivered',
  'warning message only',
  'temporar(?:y|ily)',
  'try again later',
]);

// Where the bounce starts quoting the message it returns.
const COPY_MARKER = phrases([
  'below this line is a copy of the message',
  'this is a copy of the message',
  '(?:original|returned) message follows',
  '(?:original|undelivered) message headers',
  'message headers follow',
]);

const EXPLANATION_LIMIT = 16 * 1024;

function phrases(list: readonly string[]): RegExp {
  return new RegExp(`\\b(?:${list.join('|')})`, 'i');
}

/** The bounce a mailer daemon's plain-text notice describes, or null for any other message. */
export function plainBounce(message: MessageParts, mailFrom: string): BounceDetails | null {
  if (!isBounceSender(mailFrom, message.from)) return null;
  const explanation = explanationOf(message.text);
  const subject = message.subject ?? '';
  if (!BOUNCE_SUBJECT.test(subject) && !BOUNCE_TEXT.test(explanation)) return null;
  const quoted = failureStatusIn(explanation);
  return {
    bounceType: bounceTypeOf(quoted?.status ?? null, `${subject}\n${explanation}`),
    status: quoted?.status ?? null,
    diagnostic: quoted?.line ?? null,
    recipient: failedRecipient(explanation),
  };
}

/** The header of the original message when the bounce quotes it after its explanation. */
export function quotedOriginal(text: string): Fields | null {
  const marker = COPY_MARKER.exec(text);
  if (!marker) return null;
  const lineEnd = text.indexOf('\n', marker.index);
  const fields = lineEnd === -1 ? null : parseHeaderBlock(text.slice(lineEnd + 1));
  return fields && fields.size > 0 ? fields : null;
}

function isBounceSender(mailFrom: string, from: string | null): boolean {
  const envelopeSender = mailFrom.trim();
  return (
    envelopeSender === '' ||
    envelopeSender === '<>' ||
    BOUNCE_MAILBOX.test(envelopeSender) ||
    (from !== null && BOUNCE_MAILBOX.test(from))
  );
}

function explanationOf(text: string): string {
  const marker = COPY_MARKER.exec(text);
  return text.slice(0, Math.min(marker ? marker.index : text.length, EXPLANATION_LIMIT));
}

function bounceTypeOf(status: string | null, wording: string): BounceType {
  return bounceTypeOfStatus(status) ?? (TRANSIENT_TEXT.test(wording) ? 'Transient' : 'Permanent');
}

/** The first address the explanation names that is neither a mailer daemon nor our VERP sender. */
function failedRecipient(explanation: string): string | null {
  const recipients = addressesIn(explanation).filter((address) => emailIdFromVerp(address) === null);
  return recipients.find((address) => !BOUNCE_MAILBOX.test(address)) ?? null;
}
