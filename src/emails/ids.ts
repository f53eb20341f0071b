import { randomUUID } from 'node:crypto';

/** An email id: a UUIDv7 as made below, or a v4 of mail accepted before email ids were time-ordered. */
export const EMAIL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * A new email id: a UUIDv7 (RFC 9562), the millisecond of `now` in front of 74 random bits.
 * Emails are written in the order their ids are made, so the ids land at the end of the indexes
 * keyed by them (the record's primary key, its stored message's) instead of on a random page each:
 * a campaign batch of 50 emails dirties a page or two there instead of a hundred. 74 random bits
 * keep ids as unguessable as a UUIDv4's for anyone outside the project.
 */
export function newEmailId(now: number): string {
  const random = randomUUID();
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  // random = xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: its bits after the version digit stay, variant included
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
