// The signed links of one email: subscription links for its contact, the open pixel and click redirects.
import type { Core } from '../core.js';
import type { TrackingLinks } from '../tracking/rewrite.js';
import { clickEmailHalf, clickToken, signTokenWith, tokenSecret } from '../tracking/tokens.js';

/** What signing links needs; plain data, so compose threads sign click links themselves. */
export interface LinkSigner {
  /** `publicUrl` without a trailing slash. */
  base: string;
  secret: Buffer;
  /** The signed URL halves of click links made with this signer, shared by its emails (see clickToken). */
  urlHalves?: Map<string, string>;
}

/** The subscription links of one email to one contact, as template variables and List-Unsubscribe need them. */
export interface ContactLinks {
  unsubscribeUrl: string;
  subscribeUrl: string;
  manageUrl: string;
  /** The List-Unsubscribe mailto fallback (address and subject): the token rides in the subject, local parts stay short. */
  unsubscribeMailto: string;
}

/** Mail to this local part of a bounce domain is an unsubscribe request (the inbound listener handles it). */
export const UNSUBSCRIBE_LOCAL_PART = 'unsubscribe';

export function linkSigner(core: Core): LinkSigner {
  const base = core.config.publicUrl;
  // the daemon sets it to its own listener when the configuration leaves it out
  if (!base) throw new Error('publicUrl is not set');
  return { base: base.replace(/\/+$/, ''), secret: tokenSecret(core.db) };
}

/** The unsubscribe, subscribe and manage pages of a contact (of one email, when it names one). */
export function subscriptionUrls(signer: LinkSigner, ids: { projectId: string; contactId: string; emailId?: string }): Omit<ContactLinks, 'unsubscribeMailto'> & { unsubscribeToken: string } {
  const { base, secret } = signer;
  const unsubscribeToken = signTokenWith(secret, { kind: 'unsubscribe', ...ids });
  return {
    unsubscribeToken,
    unsubscribeUrl: `${base}/u/${unsubscribeToken}`,
    subscribeUrl: `${base}/s/${signTokenWith(secret, { kind: 'subscribe', ...ids })}`,
    manageUrl: `${base}/m/${signTokenWith(secret, { kind: 'manage', ...ids })}`,
  };
}

export function contactLinks(signer: LinkSigner, ids: { projectId: string; contactId: string; emailId: string }, senderDomain: string): ContactLinks {
  const { unsubscribeToken, ...urls } = subscriptionUrls(signer, ids);
  return { ...urls, unsubscribeMailto: `${UNSUBSCRIBE_LOCAL_PART}@bounces.${senderDomain}?subject=${unsubscribeToken}` };
}

/** The open pixel and click redirects of one email. */
export function trackingLinks(signer: LinkSigner, emailId: string): TrackingLinks {
  const { base, secret } = signer;
  let emailHalf: string | undefined;
  return {
    ownBase: base,
    openUrl: `${base}/t/o/${signTokenWith(secret, { kind: 'open', emailId })}`,
    clickUrl: (url) => `${base}/t/c/${clickToken(secret, (emailHalf ??= clickEmailHalf(secret, emailId)), url, (signer.urlHalves ??= new Map()))}`,
  };
}
