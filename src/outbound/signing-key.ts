import type { Core } from '../core.js';
import { coverOf } from '../domains/cover.js';
import { activeKeys } from '../domains/key-store.js';
import { normalizeDomain } from '../addresses/domain-name.js';
import type { DkimSigning } from './dkim/sign.js';

/**
 * The signing keys for mail from `senderDomain`: the active keys (RSA, and Ed25519 where the project
 * signs with it) of the verified registered domain covering it (itself or a parent); null when none
 * does. The only way private keys leave the domain store.
 */
export function dkimFor(core: Core, projectId: string, senderDomain: string): DkimSigning | null {
  const domain = normalizeDomain(senderDomain);
  const verified = domain ? coverOf(core.db, projectId, domain).verified : null;
  const keys = verified ? activeKeys(core.db, projectId, verified.id) : [];
  if (!verified || keys.length === 0) return null;
  return { domainName: verified.domain, keys: keys.map((k) => ({ keySelector: k.selector, privateKey: k.privateKey })) };
}
