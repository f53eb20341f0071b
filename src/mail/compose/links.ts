import type { Ctx } from '../../context.js';
import { signToken } from '../../tracking/tokens.js';

/** The subscription links of one email to one contact, as template variables and List-Unsubscribe need them. */
export interface ContactLinks {
  unsubscribeUrl: string;
  subscribeUrl: string;
  manageUrl: string;
  /** The address of the List-Unsubscribe mailto fallback. */
  unsubscribeMailto: string;
}

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
    unsubscribeMailto: `unsubscribe+${unsubscribe}@bounces.${senderDomain}`,
  };
}
