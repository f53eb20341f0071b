import type { Core } from '../core.js';
import { UNSUBSCRIBE_LOCAL_PART } from '../compose/links.js';
import { changeSubscription, linkOfToken } from '../tracking/service.js';

const TOKEN = /[A-Za-z0-9_-]{40,}/g;

/** The Subject header of a raw message (unfolded), without a MIME parse: all the mailto fallback needs. */
function subjectOf(raw: Buffer): string {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('latin1').split(/\r?\n\r?\n/, 1)[0] ?? '';
  const match = /^subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(head);
  return match ? match[1]!.replace(/\r?\n[ \t]+/g, ' ') : '';
}

export const isUnsubscribeAddress = (address: string) => address.toLowerCase().startsWith(`${UNSUBSCRIBE_LOCAL_PART}@bounces.`);

/**
 * The List-Unsubscribe mailto fallback: a message to `unsubscribe@bounces.<domain>` whose subject
 * carries a genuine unsubscribe token unsubscribes that contact. Answers whether it did.
 */
export function unsubscribeByMail(core: Core, projectId: string, raw: Buffer): boolean {
  for (const token of subjectOf(raw).match(TOKEN) ?? []) {
    const link = linkOfToken(core, token, ['unsubscribe']);
    if (link && link.contact.projectId === projectId) {
      changeSubscription(core, link, false);
      return true;
    }
  }
  return false;
}
