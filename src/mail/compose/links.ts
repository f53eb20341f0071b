import type { Ctx } from '../../context.js';
import type { TrackingLinks } from '../../tracking/rewrite.js';
import { signToken } from '../../tracking/tokens.js';

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

function publicBase(ctx: Ctx): string {
  const base = ctx.config.publicUrl;
  // the daemon sets it to its own listener when the configuration leaves it out
  if (!base) throw new Error('publicUrl is not set');
  return base.replace(/\/+$/, '');
}

export function contactLinks(ctx: Ctx, ids: { projectId: string; contactId: string; emailId: string }, senderDomain: string): ContactLinks {
  const base = publicBase(ctx);
  const unsubscribe = signToken(ctx, { kind: 'unsubscribe', ...ids });
  return {
    unsubscribeUrl: `${base}/u/${unsubscribe}`,
    subscribeUrl: `${base}/s/${signToken(ctx, { kind: 'subscribe', ...ids })}`,
    manageUrl: `${base}/m/${signToken(ctx, { kind: 'manage', ...ids })}`,
    unsubscribeMailto: `${UNSUBSCRIBE_LOCAL_PART}@bounces.${senderDomain}?subject=${unsubscribe}`,
  };
}

/** The open pixel and click redirects of one email. */
export function trackingLinks(ctx: Ctx, emailId: string): TrackingLinks {
  const base = publicBase(ctx);
  return {
    ownBase: base,
    openUrl: `${base}/t/o/${signToken(ctx, { kind: 'open', emailId })}`,
    clickUrl: (url) => `${base}/t/c/${signToken(ctx, { kind: 'click', emailId, url })}`,
  };
}
