import { validationFailed } from '../errors.js';

/**
 * Names the service emits itself, which the API can neither track nor delete: `email.*`,
 * `contact.subscribed`, `contact.unsubscribed`, `segment.<slug>.entry` and `segment.<slug>.exit`.
 */
export function isReservedEventName(name: string): boolean {
  return name.startsWith('email.') || name === 'contact.subscribed' || name === 'contact.unsubscribed' || /^segment\..+\.(entry|exit)$/s.test(name);
}

/** The spec's 422 for tracking a reserved name. */
export function assertTrackable(name: string): void {
  if (!isReservedEventName(name)) return;
  throw validationFailed(
    [{ field: 'event', message: `"${name}" is reserved for events the service emits`, code: 'reserved_event', received: name }],
    'The event name is reserved',
  );
}
