import { coveringNames, domainOfAddress } from '../addresses/domain-name.js';
import type { Db } from '../store/db.js';
import { emailIdFromVerp } from '../emails/verp.js';
import { findVerifiedNamed } from '../domains/store.js';
import { outboundOrigin } from './store.js';

export interface InboundRoute {
  projectId: string;
  /** `bounce`: the VERP envelope domain `bounces.<domain>`; `domain`: a verified domain of the project. */
  kind: 'bounce' | 'domain';
}

const BOUNCE_PREFIX = 'bounces.';

/** The project whose mail a bounce address answers: the verified owner of the domain, or the project that sent the email a VERP address names from it. */
function bounceOwner(db: Db, address: string, senderDomain: string): string | null {
  const [owner] = findVerifiedNamed(db, [senderDomain]);
  if (owner) return owner.projectId;
  const emailId = emailIdFromVerp(address);
  const origin = emailId ? outboundOrigin(db, emailId) : null;
  return origin && origin.senderDomain === senderDomain ? origin.projectId : null;
}

/**
 * Which project a recipient belongs to, or null: mail is accepted only for verified domains (and
 * their subdomains), their bounce domains, and the VERP addresses of mail actually sent from a domain
 * (its late bounces still arrive after the domain lost its verification). A claim proves nothing,
 * so a pending registration receives nothing. Never a relay. The outermost verified name decides:
 * its project owns the names under it, so another project's registration of a subdomain (verified
 * before the parent was, until its next check refuses it) never takes the parent owner's mail.
 */
export function routeRecipient(db: Db, address: string): InboundRoute | null {
  const domain = domainOfAddress(address);
  if (!domain) return null;
  if (domain.startsWith(BOUNCE_PREFIX)) {
    const projectId = bounceOwner(db, address, domain.slice(BOUNCE_PREFIX.length));
    if (projectId) return { projectId, kind: 'bounce' };
  }
  const [outermost] = findVerifiedNamed(db, coveringNames(domain));
  return outermost ? { projectId: outermost.projectId, kind: 'domain' } : null;
}
