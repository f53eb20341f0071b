import { coveringNames, domainOfAddress } from '../domains/name.js';
import type { Db } from '../store/db.js';
import { domainsNamed } from './store.js';

export interface InboundRoute {
  projectId: string;
  /** `bounce`: the VERP envelope domain `bounces.<domain>`; `domain`: a verified domain of the project. */
  kind: 'bounce' | 'domain';
}

const BOUNCE_PREFIX = 'bounces.';

/**
 * Which project a recipient belongs to, or null: mail is accepted only for the bounce domains of
 * registered domains and for verified domains (and their subdomains). Never a relay.
 */
export function routeRecipient(db: Db, address: string): InboundRoute | null {
  const domain = domainOfAddress(address);
  if (!domain) return null;
  if (domain.startsWith(BOUNCE_PREFIX)) {
    const [owner] = domainsNamed(db, [domain.slice(BOUNCE_PREFIX.length)]);
    if (owner) return { projectId: owner.projectId, kind: 'bounce' };
  }
  const verified = domainsNamed(db, coveringNames(domain)).find((d) => d.verified);
  return verified ? { projectId: verified.projectId, kind: 'domain' } : null;
}
