import type { Core } from '../core.js';
import { ApiError } from '../errors.js';
import { coverOf } from './cover.js';
import { domainOfAddress } from '../addresses/domain-name.js';

export interface SenderDomain {
  id: string;
  domain: string;
}

/** The spec's error table: an unverified sender is 403 with code INTERNAL_SERVER_ERROR. */
const refused = (message: string, suggestion: string, details: Record<string, unknown>) =>
  new ApiError(403, 'INTERNAL_SERVER_ERROR', message, { suggestion, details });

/**
 * The one check of a sender address (templates, campaigns, /v1/send): its domain or a parent
 * must be registered to the project and verified. Answers the covering registration.
 */
export function assertSender(core: Core, projectId: string, address: string): SenderDomain {
  const domain = domainOfAddress(address);
  if (!domain) {
    throw refused(`The sender address "${address}" has no valid domain`, 'Use an address at a domain registered to this project', { from: address });
  }
  const { verified, closest } = coverOf(core.db, projectId, domain);
  if (verified) return { id: verified.id, domain: verified.domain };
  if (!closest) {
    throw refused(
      `The sender domain ${domain} is not registered to this project`,
      'Add the domain with POST /domains, publish the DNS records it answers, then verify it with GET /domains/{id}/verify',
      { domain },
    );
  }
  const why = closest.failureReason ? `: ${closest.failureReason}` : '';
  throw refused(
    `The sender domain ${closest.domain} is not verified${why}`,
    `Publish the DNS records of the domain, then verify it with GET /domains/${closest.id}/verify`,
    { domain, domainId: closest.id, status: closest.status },
  );
}
