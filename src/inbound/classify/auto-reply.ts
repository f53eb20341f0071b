import { headerText } from './mime-tree.js';
import type { MessageParts } from './mime-tree.js';

// RFC 3834 Auto-Submitted plus the vendor headers vacation responders set instead of it.
const AUTO_REPLY_HEADERS = ['x-autoreply', 'x-autorespond', 'x-auto-response-suppress'];
const AUTO_REPLY_PHRASES = [
  'automatic reply',
  'auto[- ]?reply',
  'auto[- ]?response',
  'out of (?:the )?office',
  'abwesenheitsnotiz',
  'automatische antwort',
  'r[ée]ponse automatique',
  'respuesta autom[áa]tica',
  'risposta automatica',
  'automatisch antwoord',
];
// A phrase opens the subject (after reply and forward prefixes, localized ones included), or
// the subject is Lotus Notes' "<name> is out of the office".
const AUTO_REPLY_SUBJECT = new RegExp(
  `^(?:(?:re|aw|fwd?|wg|sv|tr)\\s*:\\s*)*(?:${AUTO_REPLY_PHRASES.join('|')})\\b` +
    '|\\bis out of (?:the )?office\\b',
  'i',
);

/** Whether the message says it was sent by a responder rather than a person. */
export function isAutoReply(message: MessageParts): boolean {
  const autoSubmitted = headerText(message.headers, 'auto-submitted');
  if (autoSubmitted !== null && !/^\s*no\b/i.test(autoSubmitted)) return true;
  if (AUTO_REPLY_HEADERS.some((name) => message.headers.has(name))) return true;
  if (headerText(message.headers, 'precedence')?.trim().toLowerCase() === 'auto_reply') return true;
  return message.subject !== null && AUTO_REPLY_SUBJECT.test(message.subject);
}
