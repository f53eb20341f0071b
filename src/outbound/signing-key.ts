import type { Core } from '../core.js';
import { coverOf } from '../domains/cover.js';
import { normalizeDomain } from '../addresses/domain-name.js';
import type { DkimSigning } from './dkim/sign.js';

/**
 * The signing key for mail from `senderDomain`: that of the verified registered domain covering it
 * (itself or a parent), null when none does. The only way private keys leave the domain store.
 */
export function dkimFor(core: Core, projectId: string, senderDomain: string): DkimSigning | null {
  const domain = normalizeDomain(senderDomain);
  const verified = domain ? coverOf(core.db, projectId, domain).verified : null;
  return verified ? { domainName: verified.domain, keySelector: verified.selector, privateKey: verified.privateKey } : null;
}
