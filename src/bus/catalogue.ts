// The one list of event names: what the service emits itself, and the type of a tracked one.
import { validationFailed } from '../errors.js';

/** Emitted for every email: sending, delivery, engagement, feedback and received mail. */
export const EMAIL_EVENTS = {
  sent: 'email.sent',
  delivery: 'email.delivery',
  open: 'email.open',
  click: 'email.click',
  bounce: 'email.bounce',
  complaint: 'email.complaint',
  received: 'email.received',
} as const;
export type EmailEventName = (typeof EMAIL_EVENTS)[keyof typeof EMAIL_EVENTS];

/** Emitted when a contact's subscription flips. */
export const CONTACT_EVENTS = {
  subscribed: 'contact.subscribed',
  unsubscribed: 'contact.unsubscribed',
} as const;
export type ContactEventName = (typeof CONTACT_EVENTS)[keyof typeof CONTACT_EVENTS];

/** Emitted by segments that track membership: `segment.<slug>.entry|exit`. */
export type SegmentEventName = `segment.${string}.${'entry' | 'exit'}`;
export const segmentEventName = (slug: string, kind: 'entry' | 'exit'): SegmentEventName => `segment.${slug}.${kind}`;

declare const tracked: unique symbol;
/** A name tracked through the API: any string that passed `trackedEventName`. */
export type CustomEventName = string & { readonly [tracked]: true };

export type InternalEventName = EmailEventName | ContactEventName | SegmentEventName;
export type EventName = InternalEventName | CustomEventName;

const INTERNAL = new Set<string>([...Object.values(EMAIL_EVENTS), ...Object.values(CONTACT_EVENTS)]);
const SEGMENT_EVENT = /^segment\..+\.(entry|exit)$/s;

/** Names the service emits itself, which the API can neither track nor delete (`email.*` covers future ones too). */
export function isReservedEventName(name: string): name is InternalEventName {
  return name.startsWith('email.') || INTERNAL.has(name) || SEGMENT_EVENT.test(name);
}

/** The spec's 422 for tracking a reserved name; answers the name as a custom event name otherwise. */
export function trackedEventName(name: string): CustomEventName {
  if (!isReservedEventName(name)) return name as CustomEventName;
  throw validationFailed(
    [{ field: 'event', message: `"${name}" is reserved for events the service emits`, code: 'reserved_event', received: name }],
    'The event name is reserved',
  );
}
